import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { makeImage } from "../../app/features/content/media/testing/image-fixtures.ts";
import { toLondonLocal } from "../../app/features/content/studio/london-time.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { signIn } from "./support/accounts.ts";
import { launchTestBrowser } from "./support/browser.ts";
import { cookiesFor } from "./support/pages.ts";
import { openPublishMenu } from "./support/studio.ts";

// Issue 24's proof, as one journey in Chromium across the back office and the public site: a
// marketer writes a post with an image, sends its preview link to a reviewer (no sign-in), schedules
// it a minute ahead; while it waits a second editor's stale save gets the conflict screen; at its
// time it appears on /blog, in the feed and in the sitemap by itself, and a visitor reads it with its
// image; a new address leaves a 301 from the old one; unpublished, it is gone from all of them.

const WAIT = { timeout: 15_000 };
const PASSWORD = "studio journey passphrase";
const TITLE = "Payless notices, on the day they are due";
const SLUG = "payless-notices-on-the-day-they-are-due";
const NEW_SLUG = "payless-notices-on-time";
const ALT = "A site manager reading a payment notice in the cabin";
/** How long after its time a scheduled post may take to show, on a busy machine (5 s is measured in publishing.test.ts). */
const SHOWS_WITHIN_MS = 20_000;

let dir: string;
let server: RunningServer;
let database: AppDatabase;
let browser: Browser;
const cookies = { marketer: "", editor: "" };
const contexts: BrowserContext[] = [];
const errors: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "studio-journey-"));
  const databaseUrl = join(dir, "app.sqlite");
  server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error" });
  database = openDatabase(databaseUrl, { poolSize: 1 });
  await createUser(database.db, { username: "maya", password: PASSWORD, role: "marketing" });
  await createUser(database.db, { username: "eddie", password: PASSWORD, role: "admin" });
  cookies.marketer = await signIn(server.url, "maya", PASSWORD);
  cookies.editor = await signIn(server.url, "eddie", PASSWORD);
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await database?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A browser of its own: staff signed in, or a visitor or reviewer with no cookie at all. */
async function person(who: "marketer" | "editor" | "visitor", width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: "reduce" });
  contexts.push(context);
  context.setDefaultTimeout(WAIT.timeout);
  if (who !== "visitor") await context.addCookies(cookiesFor(cookies[who], server.url));
  const page = await context.newPage();
  page.on("console", (message) => {
    // Statuses the journey expects to meet: 404 before the time, 409 the conflict, 410 gone.
    if (message.type() === "error" && !/status of 4(04|09|10)/.test(message.text()))
      errors.push(`${who}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${who}: ${error.message}`));
  return page;
}

const at = (path: string) => `${server.url}${path}`;
const postRow = () =>
  database.db.selectFrom("posts").selectAll().where("title", "=", TITLE).executeTakeFirst();

/** The text of a feed or sitemap, as the visitor's browser receives it. */
async function readXml(page: Page, path: string): Promise<string> {
  const response = await page.goto(at(path));
  expect(response?.status()).toBe(200);
  return (await response?.text()) ?? "";
}

/** The first whole minute at least 40 s away: "a minute ahead" in the minute-by-minute picker. */
function aMinuteAhead(now = Date.now()): Date {
  return new Date(Math.ceil((now + 40_000) / 60_000) * 60_000);
}

describe("a post's life, from the studio to the public site and back", () => {
  it("is written with an image, previewed, scheduled, published on its own, moved and unpublished", async () => {
    const maya = await person("marketer");

    // Writing: a new post with an image in its text, uploaded from the editor.
    await maya.goto(at("/admin/content"));
    await maya.waitForSelector("html[data-hydrated]", { state: "attached" });
    await maya.getByRole("link", { name: "New post" }).click();
    await maya.waitForURL(/\/admin\/content\/new$/);
    await maya.getByLabel("Title", { exact: true }).fill(TITLE);
    await expect(maya.getByLabel("Address").inputValue()).resolves.toBe(SLUG);
    const body = maya.locator("#body");
    await body.fill(
      "## Five days before the final date\n\nA **payless notice** late by a day is no notice at all.\n\n",
    );
    await body.press("Control+End");
    await maya.getByRole("button", { name: "Insert image" }).click();
    const dialog = maya.getByRole("dialog");
    await dialog.getByLabel("Image file").setInputFiles({
      name: "cabin.jpg",
      mimeType: "image/jpeg",
      buffer: await makeImage("jpeg", { width: 1600, height: 900 }),
    });
    await dialog.getByLabel("Description (alt text)").fill(ALT);
    await dialog.getByRole("button", { name: "Upload and use" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect(body.inputValue()).resolves.toMatch(/!\[A site manager[^\]]*\]\(media:\d+\)\s*$/);
    await maya
      .getByRole("textbox", { name: "Summary" })
      .fill("The dates that decide whether a payless notice counts.");
    await maya.getByRole("button", { name: /^Save( draft)?$/ }).click();
    await maya.waitForURL(/\/admin\/content\/\d+/);
    await maya
      .getByText(/^(Draft saved\.|Saved\.|Nothing had changed)/)
      .first()
      .waitFor();
    const id = Number((await postRow())?.id);
    expect(await postRow()).toMatchObject({ status: "draft", slug: SLUG });

    // A reviewer opens the preview link with no account: the draft, its image, never indexed.
    const link = await maya.getByRole("textbox", { name: "Preview link" }).inputValue();
    const reviewer = await person("visitor", 375);
    const previewed = await reviewer.goto(link);
    expect(previewed?.status()).toBe(200);
    expect(previewed?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    await reviewer.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await expect(reviewer.getByRole("complementary", { name: "Preview" }).innerText()).resolves.toMatch(
      /Preview\. This post is a draft\. Only people with this link can see it/,
    );
    await expect(reviewer.locator('meta[name="robots"]').getAttribute("content")).resolves.toMatch(/noindex/);
    const previewImage = reviewer.getByRole("img", { name: ALT });
    await expect
      .poll(
        () => previewImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        WAIT,
      )
      .toBe(true);

    // Nowhere public yet.
    const visitor = await person("visitor");
    expect((await visitor.goto(at(`/blog/${SLUG}`)))?.status()).toBe(404);

    // Scheduled a minute ahead, in UK time as the picker shows it.
    const goesLive = aMinuteAhead();
    await openPublishMenu(maya);
    await maya.getByLabel("Or schedule it for").fill(toLondonLocal(goesLive));
    await maya.getByRole("button", { name: "Schedule", exact: true }).click();
    await maya.getByText("Scheduled: it goes live by itself").waitFor();
    expect(await postRow()).toMatchObject({ status: "scheduled", publishAt: goesLive.toISOString() });

    // While it waits, a second editor opens it; Maya saves a change, so his page is one revision
    // behind: his save is refused with both versions shown, and he takes hers.
    const ed = await person("editor");
    await ed.goto(at(`/admin/content/${id}`));
    await ed.waitForSelector("html[data-hydrated]", { state: "attached" });
    await maya
      .getByRole("textbox", { name: "Summary" })
      .fill("The dates that decide whether a payless notice counts, and how to keep them.");
    await maya.getByRole("button", { name: "Save", exact: true }).click();
    await maya.getByText(/^(Saved\.|Nothing had changed since the last save\.)$/).waitFor();
    await expect.poll(async () => (await postRow())?.excerpt, WAIT).toMatch(/and how to keep them\.$/);
    await ed.getByLabel("Title", { exact: true }).fill(`${TITLE}, revised`);
    await ed.getByRole("button", { name: "Save", exact: true }).click();
    await ed.getByRole("heading", { name: "Someone else changed this post" }).waitFor();
    await expect(ed.locator("main").innerText()).resolves.toMatch(/Last saved by maya on/);
    await ed.getByRole("link", { name: "Discard mine" }).click();
    await expect.poll(() => ed.getByLabel("Title", { exact: true }).inputValue(), WAIT).toBe(TITLE);
    expect(await postRow()).toMatchObject({ title: TITLE, status: "scheduled" });

    // Before its time it is still nowhere public.
    expect(Date.now()).toBeLessThan(goesLive.getTime());
    expect((await visitor.goto(at(`/blog/${SLUG}`)))?.status()).toBe(404);
    expect(await readXml(visitor, "/rss.xml")).not.toContain(SLUG);

    // At its time, with nobody doing anything: the blog lists it (the visitor reloads until then).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, goesLive.getTime() - Date.now())));
    let shownAfter = Number.POSITIVE_INFINITY;
    for (;;) {
      await visitor.goto(at("/blog"));
      if ((await visitor.locator(`a[href="/blog/${SLUG}"]`).count()) > 0) {
        shownAfter = Date.now() - goesLive.getTime();
        break;
      }
      if (Date.now() - goesLive.getTime() > SHOWS_WITHIN_MS) break;
      await visitor.waitForTimeout(500);
    }
    expect(shownAfter).toBeLessThanOrEqual(SHOWS_WITHIN_MS);
    console.info(`studio journey: the scheduled post was on /blog ${shownAfter} ms after its time`);
    expect(await readXml(visitor, "/rss.xml")).toContain(`/blog/${SLUG}</link>`);
    expect(await readXml(visitor, "/sitemap.xml")).toContain(`/blog/${SLUG}</loc>`);

    // The visitor clicks through and reads it, image and all, sized so the page does not shift.
    await visitor.goto(at("/blog"));
    await visitor.locator(`a[href="/blog/${SLUG}"]`).first().click();
    await visitor.waitForURL(at(`/blog/${SLUG}`));
    await visitor.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await visitor.getByRole("heading", { level: 2, name: "Five days before the final date" }).waitFor();
    const image = visitor.getByRole("img", { name: ALT });
    const shown = await image.evaluate((img: HTMLImageElement) => ({
      width: img.getAttribute("width"),
      height: img.getAttribute("height"),
      srcset:
        img.closest("picture")?.querySelector("source[type='image/avif']")?.getAttribute("srcset") ?? "",
      sizes: img.getAttribute("sizes") ?? "",
    }));
    expect(shown.width).not.toBeNull();
    expect(Number(shown.width) / Number(shown.height)).toBeCloseTo(1600 / 900, 1);
    expect(shown.srcset).toMatch(/^\/media\/\d+\/\d+-[0-9a-f]+\.avif \d+w/);
    expect(shown.sizes).not.toBe("");
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), WAIT)
      .toBe(true);

    // A new address: Maya, back in the editor, changes it and updates the live post.
    await maya.goto(at(`/admin/content/${id}`));
    await maya.waitForSelector("html[data-hydrated]", { state: "attached" });
    await maya.getByLabel("Address").fill(NEW_SLUG);
    await maya.getByRole("button", { name: "Update", exact: true }).click();
    await maya.getByText("Saved.").waitFor();
    // The old address sends the reader on (301) to the new one.
    await expect
      .poll(async () => {
        const response = await visitor.goto(at(`/blog/${SLUG}`));
        return [response?.request().redirectedFrom()?.url(), visitor.url(), response?.status()];
      }, WAIT)
      .toEqual([at(`/blog/${SLUG}`), at(`/blog/${NEW_SLUG}`), 200]);
    const redirect = await (await visitor.goto(at(`/blog/${SLUG}`)))?.request().redirectedFrom()?.response();
    expect(redirect?.status()).toBe(301);
    await visitor.getByRole("heading", { level: 1, name: TITLE }).waitFor();

    // Unpublished: both addresses say it is gone, and it leaves the blog, the feed and the sitemap.
    await openPublishMenu(maya);
    await maya.getByRole("button", { name: "Unpublish" }).click();
    await maya.getByText("Unpublished: its address now tells readers it is gone.").waitFor();
    await expect.poll(async () => (await visitor.goto(at(`/blog/${NEW_SLUG}`)))?.status(), WAIT).toBe(410);
    await visitor.getByRole("heading", { level: 1, name: "Article Removed" }).waitFor();
    expect((await visitor.goto(at(`/blog/${SLUG}`)))?.status()).toBe(410);
    await visitor.goto(at("/blog"));
    await expect(visitor.locator(`a[href^="/blog/payless-notices"]`).count()).resolves.toBe(0);
    expect(await readXml(visitor, "/rss.xml")).not.toContain("payless-notices");
    expect(await readXml(visitor, "/sitemap.xml")).not.toContain("payless-notices");

    // Each step is in the access log, in words.
    // Going live at its time writes nothing, so the log holds the two things Maya did.
    const logged = await database.db
      .selectFrom("accessLog")
      .select("action")
      .where("action", "like", "post_%")
      .orderBy("id")
      .execute();
    expect(logged.map((entry) => entry.action)).toEqual(["post_scheduled", "post_unpublished"]);
    expect(errors).toEqual([]);
  }, 240_000);
});
