import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { makeImage } from "../../app/features/content/media/testing/image-fixtures.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { leadRow } from "../support/lead-rows.ts";
import { signIn } from "./support/accounts.ts";
import { expectNoA11yViolations, launchTestBrowser } from "./support/browser.ts";
import { cookiesFor } from "./support/pages.ts";
import { openPublishMenu } from "./support/studio.ts";

// Issue 24, the content studio's back office in Chromium, on a server of its own: a marketer
// writes a post with a cover and an image in its text, sees it previewed as it is typed, lets it
// save itself, saves and schedules it (a summer and a winter time, in UK time); a second editor's
// stale save gets the conflict screen, and each way out of it keeps the right words; revisions are
// compared and one restored; without JavaScript a post is created, previewed by the server, saved
// and published; the list shows each article's views and leads of the last 30 days; leaving with
// changes asks first; sales is refused.

const WAIT = { timeout: 15_000 };
const PASSWORD = "content studio passphrase";
const ACCOUNTS = { marketer: "mara", editor: "eddie", sales: "sol" } as const;
const IMPORTED_ARTICLE = "hidden-costs-poor-contract-management";
const DAY_MS = 86_400_000;

let dir: string;
let server: RunningServer;
let database: AppDatabase;
let browser: Browser;
const sessions: Record<keyof typeof ACCOUNTS, string> = { marketer: "", editor: "", sales: "" };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "content-studio-"));
  const databaseUrl = join(dir, "app.sqlite");
  server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error" });
  database = openDatabase(databaseUrl, { poolSize: 1 });
  for (const [who, username] of Object.entries(ACCOUNTS))
    await createUser(database.db, {
      username,
      password: PASSWORD,
      role: who === "sales" ? "sales" : "marketing",
    });
  for (const who of Object.keys(ACCOUNTS) as (keyof typeof ACCOUNTS)[])
    sessions[who] = await signIn(server.url, ACCOUNTS[who], PASSWORD);
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(
  path: string,
  {
    who = "marketer",
    javaScript = true,
    width = 1280,
  }: { who?: keyof typeof ACCOUNTS; javaScript?: boolean; width?: number } = {},
) {
  const context = await browser.newContext({
    javaScriptEnabled: javaScript,
    viewport: { width, height: 900 },
    reducedMotion: "reduce",
  });
  context.setDefaultTimeout(WAIT.timeout);
  await context.addCookies(cookiesFor(sessions[who], server.url));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(`${server.url}${path}`, { waitUntil: "load" });
  if (javaScript) await page.waitForSelector("html[data-hydrated]", { state: "attached" });
  return {
    page,
    async close() {
      await context.close();
      // A refused form (400: a time in the past; 409: a conflict) is an answer the page shows, which
      // the browser also reports; nothing else may be logged.
      // A connection a test cuts on purpose (net::ERR_FAILED) is reported too.
      expect(errors.filter((text) => !/status of 40[09]|net::ERR_FAILED/.test(text))).toEqual([]);
    },
  };
}

const saveState = (page: Page) => page.locator("[data-save-state]").innerText();
const postIdOf = (page: Page) => Number(new URL(page.url()).pathname.split("/").pop());
const postRow = (id: number) =>
  database.db.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function uploadInPicker(page: Page, name: string, alt: string) {
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  await dialog.getByLabel("Image file").setInputFiles({
    name,
    mimeType: "image/png",
    buffer: await makeImage("png", { width: 640, height: 360 }),
  });
  await dialog.getByLabel("Description (alt text)").fill(alt);
  await dialog.getByRole("button", { name: "Upload and use" }).click();
  await dialog.waitFor({ state: "detached" });
}

/** A draft made through the API, as another integration or colleague would have. */
async function createPost(body: Record<string, unknown>): Promise<number> {
  const response = await fetch(`${server.url}/api/admin/posts`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: sessions.marketer, Origin: server.url },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return Number(((await response.json()) as { id: number }).id);
}

const nextYear = new Date().getUTCFullYear() + 1;

describe("writing, autosave, images, saving and scheduling", () => {
  it("a marketer writes a post with a cover and an inline image, previewed as typed, saved by itself, then schedules it", async () => {
    const { page, close } = await open("/admin/content");
    try {
      await page.getByRole("link", { name: "New post" }).click();
      await page.waitForURL(/\/admin\/content\/new$/);
      await page.evaluate(() => {
        (window as unknown as { stayedOnPage: boolean }).stayedOnPage = true;
      });

      // The address follows the title until it is changed.
      await page.getByLabel("Title", { exact: true }).fill("Retention: the money you already earned");
      await expect(page.getByLabel("Address").inputValue()).resolves.toBe(
        "retention-the-money-you-already-earned",
      );

      // The preview is the public renderer's, as the text is typed; HTML stays text.
      const body = page.locator("#body");
      await body.fill(
        "## Why it slips\n\nRetention is **money you earned**.\n\n<script>alert('x')</script>\n\nAsk for it [on time](https://example.com/guide).",
      );
      const preview = page.getByRole("region", { name: "Preview" });
      await preview.getByRole("heading", { name: "Why it slips" }).waitFor();
      await expect(preview.locator("strong").innerText()).resolves.toBe("money you earned");
      await expect(preview.locator("script").count()).resolves.toBe(0);
      await expect(preview.innerText()).resolves.toContain("<script>alert('x')</script>");

      // Three seconds after the typing stops the draft saves itself and takes its own address,
      // without the page reloading.
      await expect.poll(() => saveState(page), WAIT).toMatch(/^Saved at \d{1,2}:\d{2} [AP]M$/);
      await page.waitForURL(/\/admin\/content\/\d+$/, WAIT);
      const id = postIdOf(page);
      await expect(
        page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage),
      ).resolves.toBe(true);
      expect(await postRow(id)).toMatchObject({
        status: "draft",
        title: "Retention: the money you already earned",
        slug: "retention-the-money-you-already-earned",
      });

      // Later changes save themselves too, on the draft's revision: one autosave revision per run.
      await page.getByRole("textbox", { name: "Tags" }).fill("retention");
      const latestKind = async () =>
        (
          await database.db
            .selectFrom("postRevisions")
            .select("kind")
            .where("postId", "=", id)
            .orderBy("revision", "desc")
            .executeTakeFirst()
        )?.kind;
      await expect.poll(latestKind, WAIT).toBe("autosave");
      await expect.poll(() => saveState(page), WAIT).toMatch(/^Saved at /);

      // A lost connection is a line in the bar, not an error page in place of the text; the next
      // change, with the connection back, is saved.
      await page.route("**/api/admin/posts/**", (route) => route.abort());
      await page.getByRole("textbox", { name: "Tags" }).fill("retention, cash");
      await expect
        .poll(() => saveState(page), WAIT)
        .toMatch(/^Not saved automatically: the connection failed/);
      await page.unroute("**/api/admin/posts/**");
      await page.getByRole("textbox", { name: "Tags" }).fill("retention, cash flow");
      await expect.poll(() => saveState(page), WAIT).toMatch(/^Saved at /);
      expect(JSON.parse((await postRow(id)).tags)).toEqual(["retention", "cash flow"]);

      // A cover image, uploaded from the editor.
      await page.getByRole("button", { name: "Choose image" }).click();
      await uploadInPicker(page, "crane.png", "A tower crane over a half-built office block");
      const cover = page.getByRole("img", { name: "A tower crane over a half-built office block" });
      await cover.waitFor();
      await expect(page.getByLabel("Image description").inputValue()).resolves.toBe(
        "A tower crane over a half-built office block",
      );

      // An image into the text at the cursor (the end), shown in the preview from the library.
      await body.click();
      await body.press("Control+End");
      await page.getByRole("button", { name: "Insert image" }).click();
      await uploadInPicker(page, "site.png", "Site office [at dawn]");
      const text = await body.inputValue();
      const inline = /!\[Site office at dawn\]\(media:(\d+)\)$/.exec(text.trimEnd());
      expect(inline, text).not.toBeNull();
      const inlineId = Number(inline?.[1]);
      await expect
        .poll(() => preview.locator("img").getAttribute("src"), WAIT)
        .toMatch(new RegExp(`^/media/${inlineId}/`));

      await page
        .getByRole("textbox", { name: "Summary" })
        .fill("Why retention slips away, and how to get it back on time.");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      // Saved by the button, or already by autosave if the machine was slow to click.
      await page.getByText(/^(Saved\.|Nothing had changed since the last save\.)$/).waitFor();
      const saved = await postRow(id);
      expect(saved.coverImage).toMatch(/^\d+$/);
      expect(saved.coverAlt).toBe("A tower crane over a half-built office block");
      expect(saved.body).toContain(`![Site office at dawn](media:${inlineId})`);
      expect(saved.excerpt).toBe("Why retention slips away, and how to get it back on time.");

      // Scheduled for 09:00 UK time on 1 July: British Summer Time, 08:00 UTC.
      await openPublishMenu(page);
      await page.getByLabel("Or schedule it for").fill(`${nextYear}-07-01T09:00`);
      await page.getByRole("button", { name: "Schedule", exact: true }).click();
      await page.getByText("Scheduled: it goes live by itself").waitFor();
      expect(await postRow(id)).toMatchObject({
        status: "scheduled",
        publishAt: `${nextYear}-07-01T08:00:00.000Z`,
      });
      await expect(page.getByText(`Goes live Jul 1, ${nextYear}, 9:00 AM BST`).count()).resolves.toBe(1);

      // Moved to 09:00 on 1 December: Greenwich Mean Time, 09:00 UTC.
      await openPublishMenu(page);
      await page.getByLabel("Change the time").fill(`${nextYear}-12-01T09:00`);
      await page.getByRole("button", { name: "Reschedule" }).click();
      await page.getByText(`Goes live Dec 1, ${nextYear}, 9:00 AM GMT`).waitFor();
      expect((await postRow(id)).publishAt).toBe(`${nextYear}-12-01T09:00:00.000Z`);

      // A time in the past is refused before anything is saved.
      await openPublishMenu(page);
      await page.getByLabel("Change the time").fill("2020-01-01T09:00");
      await page.getByRole("button", { name: "Reschedule" }).click();
      await page.getByText("Choose a time in the future, or publish it now").first().waitFor();
      expect((await postRow(id)).publishAt).toBe(`${nextYear}-12-01T09:00:00.000Z`);

      // The preview link, to send for review, says when it stops working.
      const link = await page.getByRole("textbox", { name: "Preview link" }).inputValue();
      expect(link).toMatch(new RegExp(`^${server.url}/preview/${id}\\.\\d+\\.[A-Za-z0-9_-]{22}$`));
      await expect(page.getByText(/^Works until [A-Z][a-z]{2} \d{1,2}, \d{4}/).count()).resolves.toBe(1);

      // The list shows it scheduled, with its time.
      await page.getByRole("link", { name: "Content", exact: true }).first().click();
      await page.waitForURL(/\/admin\/content$/);
      const row = page.locator(`table [data-post-id="${id}"]`);
      await expect(row.innerText()).resolves.toMatch(
        new RegExp(`Scheduled[\\s\\S]*Goes live Dec 1, ${nextYear}, 9:00 AM GMT`),
      );
    } finally {
      await close();
    }
  }, 90_000);

  it("saves a live post only on purpose, and asks before leaving with changes", async () => {
    const post = await database.db
      .selectFrom("posts")
      .select("id")
      .where("slug", "=", IMPORTED_ARTICLE)
      .executeTakeFirstOrThrow();
    const { page, close } = await open(`/admin/content/${post.id}`);
    try {
      await page
        .getByLabel("Title", { exact: true })
        .fill("The Hidden Costs of Poor Contract Management, revised");
      await expect(saveState(page)).resolves.toMatch(
        /this post is live, so it is saved only when you press Update/,
      );
      // No autosave on a live post: still the imported revision after the autosave delay.
      await page.waitForTimeout(4000);
      expect(Number((await postRow(Number(post.id))).revision)).toBe(1);

      await page.getByRole("link", { name: "Content", exact: true }).first().click();
      const dialog = page.getByRole("alertdialog", { name: "Leave without saving?" });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Stay and keep editing" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(new URL(page.url()).pathname).toBe(`/admin/content/${post.id}`);
      await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toMatch(/revised$/);

      await page.getByRole("link", { name: "Content", exact: true }).first().click();
      await dialog.getByRole("button", { name: "Leave" }).click();
      await page.waitForURL(/\/admin\/content$/);
      expect(Number((await postRow(Number(post.id))).revision)).toBe(1);
    } finally {
      await close();
    }
  }, 60_000);
});

describe("a second post with a title already used", () => {
  it("takes the next free address and keeps saving itself; on a phone a refused save's reason is read in full", async () => {
    const title = "Payment notices that hold up at adjudication";
    const taken = "payment-notices-that-hold-up-at-adjudication";
    await createPost({ kind: "article", title });
    const { page, close } = await open("/admin/content/new", { width: 375 });
    try {
      // The editor suggests the title's address as it is typed: another post has it.
      await page.getByLabel("Title", { exact: true }).fill(title);
      await expect(page.getByLabel("Address").inputValue()).resolves.toBe(taken);
      await page.locator("#body").fill("Get the dates right first.");
      // It saves itself all the same, under the next free address, which the form then shows.
      await expect.poll(() => saveState(page), WAIT).toMatch(/^Saved at /);
      await page.waitForURL(/\/admin\/content\/\d+$/, WAIT);
      const id = postIdOf(page);
      expect(await postRow(id)).toMatchObject({ title, slug: `${taken}-2`, revision: 1 });
      await expect(page.getByLabel("Address").inputValue()).resolves.toBe(`${taken}-2`);
      await expect(page.locator("#slug-hint").innerText()).resolves.toContain(
        `Another post has /blog/${taken}, so this one takes the next free address, /blog/${taken}-2.`,
      );
      if (process.env.SCREENSHOTS_DIR)
        await page.screenshot({ path: join(process.env.SCREENSHOTS_DIR, "content-free-address-375.png") });
      // And goes on saving itself as the text changes.
      await page.locator("#body").fill("Get the dates right first, then the amounts.");
      await expect.poll(async () => (await postRow(id)).revision, WAIT).toBe(2);
      await expect.poll(() => saveState(page), WAIT).toMatch(/^Saved at /);
      expect(await postRow(id)).toMatchObject({
        slug: `${taken}-2`,
        body: "Get the dates right first, then the amounts.",
      });

      // An address typed by hand that another post has is refused, naming a free one (its own), and the bar
      // says why in full on a 375 px screen (not cut off).
      await page.getByLabel("Address").fill(taken);
      await expect
        .poll(() => saveState(page), WAIT)
        .toBe("Not saved automatically: check the marked fields.");
      await expect(page.locator("#slug-error").innerText()).resolves.toBe(
        `Another post already has this address (“${title}”): choose another, such as ${taken}-2`,
      );
      const bar = await page.locator("[data-save-state]").evaluate((element) => {
        const box = element.getBoundingClientRect();
        return {
          cut: element.scrollWidth > element.clientWidth + 1,
          left: box.left,
          right: box.right,
          viewport: document.documentElement.clientWidth,
        };
      });
      expect(bar).toMatchObject({ cut: false });
      expect(bar.left).toBeGreaterThanOrEqual(0);
      expect(bar.right).toBeLessThanOrEqual(bar.viewport);
      if (process.env.SCREENSHOTS_DIR)
        await page.screenshot({ path: join(process.env.SCREENSHOTS_DIR, "content-taken-address-375.png") });
    } finally {
      await close();
    }

    // The Save button of a new draft does the same when its title's address is taken.
    const second = await open("/admin/content/new");
    try {
      await second.page.getByLabel("Title", { exact: true }).fill(title);
      await second.page.getByRole("button", { name: "Save draft" }).click();
      await second.page.waitForURL(/\/admin\/content\/\d+/, WAIT);
      await second.page
        .getByText(/^(Draft saved\.|Saved\.|Nothing had changed)/)
        .first()
        .waitFor();
      expect(await postRow(postIdOf(second.page))).toMatchObject({ title, slug: `${taken}-3` });
      await expect(second.page.getByLabel("Address").inputValue()).resolves.toBe(`${taken}-3`);
    } finally {
      await second.close();
    }
  }, 90_000);
});

describe("the Publish menu", () => {
  it("closes once its action is done", async () => {
    const id = await createPost({
      kind: "article",
      title: "Retention, released on time",
      excerpt: "When retention comes back, and how to ask for it.",
      body: "Half at practical completion, half after the defects period.",
    });
    const { page, close } = await open(`/admin/content/${id}`);
    try {
      const menu = page.locator("details:has(> summary)").filter({ has: page.locator("#publishAt") });
      const isOpen = () => menu.evaluate((element) => (element as HTMLDetailsElement).open);
      await openPublishMenu(page);
      await expect(isOpen()).resolves.toBe(true);
      await page.getByRole("button", { name: "Publish now" }).click();
      await page.getByText("Published: it is on the site now.").waitFor();
      expect((await postRow(id)).status).toBe("published");
      const liveMenu = page
        .locator("details:has(> summary)")
        .filter({ has: page.locator("[value=unpublish]") });
      await expect
        .poll(() => liveMenu.evaluate((element) => (element as HTMLDetailsElement).open), WAIT)
        .toBe(false);
      // Opened again, it closes after unpublishing too.
      await openPublishMenu(page);
      await page.getByRole("button", { name: "Unpublish" }).click();
      await page.getByText("Unpublished: its address now tells readers it is gone.").waitFor();
      await expect.poll(isOpen, WAIT).toBe(false);
    } finally {
      await close();
    }
  }, 60_000);
});

describe("deleting", () => {
  it("deletes a draft nobody saw after asking, and says so on the list", async () => {
    const id = await createPost({ kind: "article", title: "A draft written by mistake" });
    const { page, close } = await open(`/admin/content/${id}`);
    try {
      await page.getByRole("link", { name: "Delete this draft…" }).click();
      await page.getByRole("heading", { name: "Delete this draft?" }).waitFor();
      await page.getByRole("button", { name: "Delete the draft" }).click();
      await page.waitForURL(/\/admin\/content\?notice=deleted$/);
      await page.getByText("Draft deleted, with its revisions.").waitFor();
      expect(
        await database.db.selectFrom("posts").select("id").where("id", "=", id).executeTakeFirst(),
      ).toBeUndefined();
      const logged = await database.db
        .selectFrom("accessLog")
        .select("detail")
        .where("action", "=", "post_deleted")
        .execute();
      expect(logged.map((entry) => JSON.parse(entry.detail ?? "{}"))).toContainEqual(
        expect.objectContaining({ postId: id, title: "A draft written by mistake" }),
      );
    } finally {
      await close();
    }
  });
});

describe("two editors on one post", () => {
  it("a stale save gets the conflict screen with both versions; each way out keeps the right words", async () => {
    const id = await createPost({
      kind: "article",
      title: "Adjudication in 28 days",
      excerpt: "What the clock means for both parties.",
      body: "Adjudication is fast.\n\nThe referring party sets the pace.",
    });
    const mara = await open(`/admin/content/${id}`);
    const eddie = await open(`/admin/content/${id}`, { who: "editor" });
    try {
      // Mara saves a new title.
      await mara.page.getByLabel("Title", { exact: true }).fill("Adjudication in 28 days: a survival guide");
      await mara.page.getByRole("button", { name: "Save", exact: true }).click();
      await mara.page.getByText("Saved.").waitFor();

      // Eddie, still on the revision he opened, adds a paragraph and saves: refused, both shown.
      await eddie.page
        .locator("#body")
        .fill(
          "Adjudication is fast.\n\nThe referring party sets the pace.\n\nThe responding party has days, not weeks.",
        );
      await eddie.page.getByRole("button", { name: "Save", exact: true }).click();
      await eddie.page.getByRole("heading", { name: "Someone else changed this post" }).waitFor();
      const screen = eddie.page.locator("main");
      await expect(screen.innerText()).resolves.toMatch(/Last saved by mara on [A-Z][a-z]{2} \d{1,2}, \d{4}/);
      const fields = eddie.page.getByRole("table").filter({ hasText: "Theirs (saved)" });
      await expect(fields.innerText()).resolves.toMatch(
        /Title\s+Adjudication in 28 days: a survival guide\s+Adjudication in 28 days/,
      );
      await expect(
        eddie.page.getByRole("region", { name: "Text", exact: true }).textContent(),
      ).resolves.toContain("Added: The responding party has days, not weeks.");
      await expectNoA11yViolations(eddie.page);
      expect(Number((await postRow(id)).revision)).toBe(2);

      // Edit theirs: their title in the form, his text beside it to copy from.
      await eddie.page.getByRole("button", { name: "Edit their version" }).click();
      await eddie.page.getByRole("heading", { name: "You are editing their version" }).waitFor();
      await expect
        .poll(() => eddie.page.getByLabel("Title", { exact: true }).inputValue(), WAIT)
        .toBe("Adjudication in 28 days: a survival guide");
      const mine = await eddie.page.getByLabel("Your text (not saved)").inputValue();
      expect(mine).toContain("The responding party has days, not weeks.");
      await eddie.page.locator("#body").fill(mine);
      // What is sent is what he typed (the form shows their version until then).
      await expect.poll(() => eddie.page.locator("#body").inputValue(), WAIT).toBe(mine);
      await eddie.page.getByRole("button", { name: "Save", exact: true }).click();
      await eddie.page.getByText("Saved.").waitFor();
      await expect
        .poll(async () => {
          const row = await postRow(id);
          return {
            title: row.title,
            hasHisText: String(row.body).includes("The responding party has days, not weeks."),
          };
        }, WAIT)
        .toEqual({ title: "Adjudication in 28 days: a survival guide", hasHisText: true });

      // Mara's page is now the stale one: her summary is refused, and she saves hers over his.
      await mara.page.getByRole("textbox", { name: "Summary" }).fill("A calendar for the 28 days.");
      await mara.page.getByRole("button", { name: "Save", exact: true }).click();
      await mara.page.getByRole("heading", { name: "Someone else changed this post" }).waitFor();
      await mara.page.getByRole("button", { name: "Save mine over theirs" }).click();
      await mara.page.getByText("Saved.").waitFor();
      const overwritten = await postRow(id);
      // Hers as a whole: her title and summary, and the text as she had it.
      expect(overwritten).toMatchObject({
        title: "Adjudication in 28 days: a survival guide",
        excerpt: "A calendar for the 28 days.",
        body: "Adjudication is fast.\n\nThe referring party sets the pace.",
      });

      // Eddie's summary now meets Mara's save: he throws his away and gets hers, text and all.
      await eddie.page.getByRole("textbox", { name: "Summary" }).fill("Both parties, day by day.");
      await eddie.page.getByRole("button", { name: "Save", exact: true }).click();
      await eddie.page.getByRole("heading", { name: "Someone else changed this post" }).waitFor();
      await eddie.page.getByRole("link", { name: "Discard mine" }).click();
      await expect
        .poll(() => eddie.page.getByRole("textbox", { name: "Summary" }).inputValue(), WAIT)
        .toBe("A calendar for the 28 days.");
      await expect.poll(() => saveState(eddie.page), WAIT).toBe("All changes saved");
      expect(await postRow(id)).toMatchObject({
        excerpt: "A calendar for the 28 days.",
        revision: overwritten.revision,
      });
      // Nothing anyone saved is lost: Eddie's paragraph is in the revisions.
      const kept = await database.db
        .selectFrom("postRevisions")
        .select("snapshot")
        .where("postId", "=", id)
        .execute();
      expect(kept.some((revision) => revision.snapshot.includes("The responding party has days"))).toBe(true);
    } finally {
      await mara.close();
      await eddie.close();
    }
  }, 90_000);
});

describe("an autosave that meets a newer save", () => {
  it("shows the conflict screen instead of saving, and saving over theirs works from it", async () => {
    const id = await createPost({
      kind: "article",
      title: "Defects periods",
      body: "Twelve months, usually.",
    });
    const { page, close } = await open(`/admin/content/${id}`);
    try {
      // A colleague saves through the API while this page is open on revision 1.
      const theirs = await fetch(`${server.url}/api/admin/posts/${id}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json", Cookie: sessions.editor, Origin: server.url },
        body: JSON.stringify({ revision: 1, title: "Defects periods, explained" }),
      });
      expect(theirs.status).toBe(200);
      await page.locator("#body").fill("Twelve months, usually; sometimes twenty-four.");
      await page.getByRole("heading", { name: "Someone else changed this post" }).waitFor(WAIT);
      await expect(page.locator("main").innerText()).resolves.toMatch(
        /Last saved on [A-Z][a-z]{2} \d{1,2}, \d{4}/,
      );
      expect(await postRow(id)).toMatchObject({ title: "Defects periods, explained", revision: 2 });
      await page.getByRole("button", { name: "Save mine over theirs" }).click();
      await page.getByText("Saved.").waitFor();
      expect(await postRow(id)).toMatchObject({
        title: "Defects periods",
        body: "Twelve months, usually; sometimes twenty-four.",
        revision: 3,
      });
    } finally {
      await close();
    }
  }, 60_000);
});

describe("revisions", () => {
  it("lists every save with who and when, compares two, and restores one as a new revision", async () => {
    const id = await createPost({
      kind: "article",
      title: "Notice periods",
      body: "Serve notice in writing.",
    });
    const { page, close } = await open(`/admin/content/${id}`);
    try {
      await page.getByLabel("Title", { exact: true }).fill("Notice periods that hold up");
      await page.locator("#body").fill("Serve notice in writing.\n\nKeep proof of delivery.");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Saved.").waitFor();
      await page.getByRole("link", { name: "Revisions" }).click();
      await page.getByRole("heading", { level: 1, name: "Revisions" }).waitFor();

      // Newest first: the save, current; the first, created; autosaves (if any) between them.
      const rows = page.locator("tr[data-revision]");
      await expect(rows.first().innerText()).resolves.toMatch(/\d+\. Saved\s*Current[\s\S]*by mara/);
      await expect(rows.last().innerText()).resolves.toMatch(/^\s*1\. Created[\s\S]*by mara/);
      const current = Number(await rows.first().getAttribute("data-revision"));

      // The first against the current one.
      await page.getByRole("radio", { name: "Compare from revision 1" }).check();
      await page.getByRole("radio", { name: `Compare to revision ${current}` }).check();
      await page.getByRole("button", { name: "Compare the chosen two" }).click();
      await page.getByRole("heading", { name: `What changed from revision 1 to ${current}` }).waitFor();
      await expect(page.getByRole("table").nth(1).innerText()).resolves.toMatch(
        /Title\s+Notice periods\s+Notice periods that hold up/,
      );
      await expect(page.getByRole("region", { name: "Text", exact: true }).textContent()).resolves.toMatch(
        /0 lines removed, 2 lines added[\s\S]*Added: Keep proof of delivery\./,
      );

      await page.getByRole("link", { name: "Restore revision 1" }).click();
      await page.getByRole("heading", { name: "Restore revision 1?" }).waitFor();
      await page.getByRole("button", { name: "Restore revision 1" }).click();
      await page.waitForURL(new RegExp(`/admin/content/${id}\\?notice=restored$`));
      await page.getByText("Revision restored, as a new revision").waitFor();
      await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe("Notice periods");
      expect(await postRow(id)).toMatchObject({ title: "Notice periods", revision: current + 1 });
      const logged = await database.db
        .selectFrom("accessLog")
        .select("detail")
        .where("action", "=", "post_restored")
        .execute();
      expect(logged.map((entry) => JSON.parse(entry.detail ?? "{}"))).toContainEqual(
        expect.objectContaining({ postId: id, restored: 1, revision: current + 1 }),
      );
    } finally {
      await close();
    }
  }, 60_000);
});

describe("without JavaScript", () => {
  it("creates and saves a post, shows the server's preview, picks a cover and publishes it", async () => {
    // An image in the library to choose as the cover.
    const upload = new FormData();
    upload.set(
      "file",
      new File([new Uint8Array(await makeImage("png", { width: 400, height: 300 }))], "plan.png"),
    );
    upload.set("alt", "A site plan");
    const uploaded = await fetch(`${server.url}/api/admin/media`, {
      method: "POST",
      headers: { Cookie: sessions.marketer, Origin: server.url },
      body: upload,
    });
    expect(uploaded.status).toBe(201);
    const imageId = ((await uploaded.json()) as { id: number }).id;

    const { page, close } = await open("/admin/content/new", { javaScript: false });
    try {
      await page.getByLabel("Title", { exact: true }).fill("Payment notices without JavaScript");
      await page.locator("#body").fill("Send the **payment notice** within five days.");
      await page.getByRole("button", { name: "Save draft" }).click();
      await page.waitForURL(/\/admin\/content\/\d+\?notice=created$/);
      const postId = postIdOf(page);
      expect(await postRow(postId)).toMatchObject({
        slug: "payment-notices-without-javascript",
        body: "Send the **payment notice** within five days.",
        status: "draft",
      });

      // The Preview button renders what is typed, on the server, and saves nothing.
      await page.locator("#body").fill("Send the **payment notice** within five days.\n\n## Then what?");
      await page.getByRole("button", { name: "Preview" }).click();
      const preview = page.getByRole("region", { name: "Preview" });
      await preview.getByRole("heading", { name: "Then what?" }).waitFor();
      await expect(page.locator("#body").inputValue()).resolves.toContain("## Then what?");
      expect((await postRow(postId)).body).toBe("Send the **payment notice** within five days.");

      // Saved, with a cover chosen from the library in the form.
      await page.getByRole("radio", { name: "A site plan" }).check();
      await page.getByLabel("Image description").fill("The site plan, north at the top");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Saved.").waitFor();
      expect(await postRow(postId)).toMatchObject({
        body: "Send the **payment notice** within five days.\n\n## Then what?",
        coverImage: String(imageId),
      });

      // Publishing needs a summary: said by field, and nothing goes live.
      await page.locator("summary", { hasText: "Publish" }).click();
      await page.getByRole("button", { name: "Publish now" }).click();
      await page.waitForURL(/notice=not-ready$/);
      await expect(
        page.getByRole("alert").filter({ hasText: "Please check these" }).innerText(),
      ).resolves.toMatch(/Summary: Write a summary/);
      expect((await postRow(postId)).status).toBe("draft");

      await page.getByRole("textbox", { name: "Summary" }).fill("Five days, in writing.");
      await page.locator("summary", { hasText: "Publish" }).click();
      await page.getByRole("button", { name: "Publish now" }).click();
      await page.getByText("Published: it is on the site now.").waitFor();
      expect(await postRow(postId)).toMatchObject({ status: "published", excerpt: "Five days, in writing." });
    } finally {
      await close();
    }
  }, 60_000);
});

describe("the list", () => {
  it("shows each article's views and leads of the last 30 days, filters and searches", async () => {
    const path = `/blog/${IMPORTED_ARTICLE}`;
    const now = Date.now();
    const day = (daysAgo: number) => new Date(now - daysAgo * DAY_MS).toISOString().slice(0, 10);
    // Counted days: 5 views three days ago, 100 forty days ago (outside the 30 days).
    await database.db
      .insertInto("analyticsDailyTotals")
      .values(
        [40, 3].map((ago) => ({
          day: day(ago),
          views: ago === 40 ? 100 : 5,
          visitors: 1,
          notFoundViews: 0,
          rolledThroughId: 0,
          rolledAt: new Date(now).toISOString(),
        })),
      )
      .execute();
    await database.db
      .insertInto("analyticsDailyCounts")
      .values([
        { dimension: "page", day: day(40), value: path, views: 100, visitors: 1 },
        { dimension: "page", day: day(3), value: path, views: 5, visitors: 1 },
      ])
      .execute();
    // Today, raw: three views of the article and one 404 at its address (not a view of it).
    const view = (isNotFound: number, visitor: string) => ({
      occurredAt: new Date(now - 60_000).toISOString(),
      path,
      referrerHost: null,
      referrerPath: null,
      utmSource: null,
      utmMedium: null,
      utmCampaign: null,
      utmTerm: null,
      utmContent: null,
      paidClick: 0,
      device: "desktop" as const,
      browser: "Chrome",
      visitorId: visitor,
      isNotFound,
    });
    await database.db
      .insertInto("analyticsPageViews")
      .values([view(0, "v1"), view(0, "v1"), view(0, "v2"), view(1, "v3")])
      .execute();
    // Two leads entered on the article in the 30 days; one held as spam and one older do not count.
    const lead = async (daysAgo: number, email: string, spam = 0) => {
      const at = new Date(now - daysAgo * DAY_MS).toISOString();
      const row = await database.db
        .insertInto("leads")
        .values(
          leadRow({
            email,
            createdAt: at,
            updatedAt: at,
            isSpam: spam,
            spamReason: spam ? "honeypot" : null,
          }),
        )
        .returning("id")
        .executeTakeFirstOrThrow();
      await database.db
        .insertInto("leadAttributions")
        .values({
          leadId: Number(row.id),
          status: "linked",
          submittedAt: at,
          landingPage: path,
          channel: "Direct",
        })
        .execute();
    };
    await lead(1, "first@example.com");
    await lead(2, "second@example.com");
    await lead(1, "spam@example.com", 1);
    await lead(45, "old@example.com");

    const { page, close } = await open("/admin/content?kind=article&q=hidden%20costs");
    try {
      const row = page
        .locator("table tbody tr")
        .filter({ hasText: "The Hidden Costs of Poor Contract Management" });
      await expect(row.count()).resolves.toBe(1);
      const cells = await row.locator("td").allInnerTexts();
      // Title, status, author, published, edited, views, leads.
      expect(
        cells
          .at(-2)
          ?.replace(/\s+views.*$/s, "")
          .trim(),
      ).toBe("8");
      expect(
        cells
          .at(-1)
          ?.replace(/\s+leads.*$/s, "")
          .trim(),
      ).toBe("2");

      // Press items are read on the publication's site: no views of ours.
      await page.goto(`${server.url}/admin/content?kind=press`);
      const press = page.locator("table tbody tr").first();
      await expect(press.innerText()).resolves.toMatch(/Press[\s\S]*—\s+Not counted[\s\S]*—\s+Not counted/);

      // Drafts only; a search that finds nothing says so, with a way back.
      await page.goto(`${server.url}/admin/content?status=draft`);
      await expect(page.locator("table tbody tr").count()).resolves.toBeGreaterThan(0);
      for (const text of await page.locator("table tbody tr td:nth-child(2)").allInnerTexts())
        expect(text.trim()).toBe("Draft");
      await page.getByLabel("Search").fill("no post is called this");
      await page.getByRole("button", { name: "Show posts" }).click();
      await page.getByRole("heading", { name: "No posts match" }).waitFor();
      await page.getByRole("link", { name: "Show every post" }).click();
      await page.waitForURL(/\/admin\/content$/);
    } finally {
      await close();
    }
  }, 60_000);
});

describe("who may use the studio", () => {
  it("refuses sales every page and form, and does not show them Content", async () => {
    const post = await database.db.selectFrom("posts").select("id").executeTakeFirstOrThrow();
    for (const path of [
      "/admin/content",
      "/admin/content/new",
      `/admin/content/${post.id}`,
      `/admin/content/${post.id}/revisions`,
    ]) {
      const response = await fetch(`${server.url}${path}`, {
        headers: { Cookie: sessions.sales },
        redirect: "manual",
      });
      expect([path, response.status, response.headers.get("location")]).toEqual([path, 302, "/"]);
    }
    const save = await fetch(`${server.url}/admin/content/${post.id}`, {
      method: "POST",
      headers: {
        Cookie: sessions.sales,
        Origin: server.url,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ intent: "unpublish" }).toString(),
      redirect: "manual",
    });
    expect([save.status, save.headers.get("location")]).toEqual([302, "/"]);

    const { page, close } = await open("/admin/dashboard", { who: "sales" });
    try {
      await expect(page.getByRole("link", { name: "Content", exact: true }).count()).resolves.toBe(0);
    } finally {
      await close();
    }
    const marketer = await open("/admin/analytics");
    try {
      await expect(
        marketer.page.getByRole("link", { name: "Content", exact: true }).first().getAttribute("href"),
      ).resolves.toBe("/admin/content");
    } finally {
      await marketer.close();
    }
  });
});
