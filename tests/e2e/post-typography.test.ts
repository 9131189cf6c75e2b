import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { makeImage } from "../../app/features/content/media/testing/image-fixtures.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { signIn } from "./support/accounts.ts";
import { expectNoA11yViolations, launchTestBrowser } from "./support/browser.ts";
import { cookiesFor } from "./support/pages.ts";

// Issue 32 (13): every element the post renderer emits (posts/post-markdown.ts: headings, lists
// nested both ways, a quote, inline code and a code block, a rule, a table with a header row, an
// image with its caption, links, emphasis) is styled where readers and authors see it: the public
// article, the private preview link and the editor's live preview, at 1280 and 375 px. Checked in
// Chromium by the computed styles and the geometry a reader meets (ruled, padded table cells; a
// shaded code block; no part wider than the screen), with a screenshot of each kept (in
// SCREENSHOTS_DIR when set, else in the test's temporary directory) to look at: a pixel diff against
// a committed image would fail on another machine's fonts.

const WAIT = { timeout: 15_000 };
const PASSWORD = "typography passphrase";
const SHOTS = process.env.SCREENSHOTS_DIR;

let dir: string;
let server: RunningServer;
let database: AppDatabase;
let browser: Browser;
let session = "";
let slug = "";
let postId = 0;
let previewUrl = "";

const body = (mediaId: number) =>
  [
    "Retention is money you have **already earned**, and *most* of it comes back ~~late~~ on time.",
    "",
    "## The dates that matter",
    "",
    "### Practical completion",
    "",
    "#### Half the retention",
    "",
    "- Put both release dates in the calendar",
    "  - the first at practical completion",
    "  - the second after the defects period",
    "- Ask in writing, citing `clause 4.18`",
    "",
    "1. Check the contract",
    "   1. the retention percentage",
    "   2. the cap, if any",
    "2. Send the notice",
    "",
    "> A payless notice late by a day is no notice at all.",
    "",
    "```",
    "Release date = practical completion + defects period (12 months)",
    "```",
    "",
    "---",
    "",
    "| Stage | When | Share of retention |",
    "|---|---|---:|",
    "| Practical completion | On the certificate | 50 % |",
    "| Making good defects | After the defects period | 50 % |",
    "",
    `![The site office at dawn](media:${mediaId} "The site office on the day of practical completion")`,
    "",
    "Read [the guidance](https://www.example.com/retention) or [our features](/features).",
  ].join("\n");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "post-typography-"));
  const databaseUrl = join(dir, "app.sqlite");
  server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error" });
  database = openDatabase(databaseUrl, { poolSize: 1 });
  await createUser(database.db, { username: "tia", password: PASSWORD, role: "marketing" });
  session = await signIn(server.url, "tia", PASSWORD);
  browser = await launchTestBrowser();

  const image = new FormData();
  image.set(
    "file",
    new File([new Uint8Array(await makeImage("jpeg", { width: 1200, height: 675 }))], "office.jpg"),
  );
  image.set("alt", "The site office at dawn");
  const uploaded = await fetch(`${server.url}/api/admin/media`, {
    method: "POST",
    headers: { Origin: server.url, Cookie: session },
    body: image,
  });
  expect(uploaded.status).toBe(201);
  const mediaId = Number(((await uploaded.json()) as { id: number }).id);
  const created = await api("/api/admin/posts", {
    kind: "article",
    title: "Retention, released on time",
    excerpt: "Every element a post can hold, styled where it is read.",
    body: body(mediaId),
  });
  postId = Number(created.id);
  slug = String(created.slug);
  previewUrl = String(created.previewUrl);
  await api(`/api/admin/posts/${postId}/publish`, {});
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function api(path: string, payload: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, Cookie: session },
    body: JSON.stringify(payload),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

type Measured = Awaited<ReturnType<typeof measure>>;

/** The computed styles and boxes of each element the renderer emits, inside `selector`. */
function measure(page: Page, selector: string) {
  return page.locator(selector).evaluate((root) => {
    // An element the renderer did not emit is listed, and measured as an empty box.
    const missing: string[] = [];
    const one = (css: string) => {
      const element = root.querySelector(css);
      if (element) return element;
      missing.push(css);
      return document.createElement("span");
    };
    const style = (css: string) => getComputedStyle(one(css));
    const px = (value: string) => Number.parseFloat(value) || 0;
    const painted = (color: string) => color !== "rgba(0, 0, 0, 0)" && color !== "transparent";
    const rootBox = root.getBoundingClientRect();
    const td = style("tbody td");
    const th = style("thead th");
    const pre = style("pre");
    const inlineCode = style(":not(pre) > code");
    const hr = style("hr");
    const paragraph = style("p");
    const caption = style("figure > figcaption");
    const table = one(".table-scroll").getBoundingClientRect();
    const image = one("figure img").getBoundingClientRect();
    return {
      missing,
      td: {
        border: [td.borderTopWidth, td.borderLeftWidth].map(px),
        borderStyle: td.borderTopStyle,
        padding: [td.paddingTop, td.paddingLeft].map(px),
      },
      th: {
        shaded: painted(th.backgroundColor),
        weight: Number(th.fontWeight),
        border: px(th.borderTopWidth),
      },
      numberColumn: style("tbody td:last-child").textAlign,
      pre: {
        shaded: painted(pre.backgroundColor),
        padding: px(pre.paddingLeft),
        colour: pre.color !== paragraph.color,
      },
      inlineCode: { shaded: painted(inlineCode.backgroundColor), padding: px(inlineCode.paddingLeft) },
      quote: { rule: px(style("blockquote").borderLeftWidth), indent: px(style("blockquote").paddingLeft) },
      lists: {
        ul: style("ul").listStyleType,
        nestedUl: style("ul ul").listStyleType,
        ol: style("ol").listStyleType,
        nestedOl: style("ol ol").listStyleType,
        indent: px(style("ul").paddingLeft),
      },
      hr: { line: px(hr.borderTopWidth), space: px(hr.marginTop) },
      headings: {
        h2: px(style("h2").fontSize),
        h3: px(style("h3").fontSize),
        h4: Number(style("h4").fontWeight),
        paragraph: px(paragraph.fontSize),
      },
      emphasis: style("em").fontStyle,
      link: style("a").textDecorationLine,
      caption: {
        size: px(caption.fontSize),
        align: caption.textAlign,
        space: px(caption.marginTop),
        below: one("figure > figcaption").getBoundingClientRect().top >= image.bottom,
      },
      // Nothing wider than the column it is in, or than the screen.
      fits: {
        table: table.left >= rootBox.left - 1 && table.right <= rootBox.right + 1,
        image: image.right <= rootBox.right + 1,
        page: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      },
    };
  });
}

function expectStyled(measured: Measured) {
  expect(measured.td.border.every((width) => width >= 1)).toBe(true);
  expect(measured.td.borderStyle).toBe("solid");
  expect(measured.td.padding[0]).toBeGreaterThanOrEqual(6);
  expect(measured.td.padding[1]).toBeGreaterThanOrEqual(8);
  expect(measured.th).toMatchObject({ shaded: true });
  expect(measured.th.weight).toBeGreaterThanOrEqual(600);
  expect(measured.th.border).toBeGreaterThanOrEqual(1);
  // The author's `---:` column is right-aligned.
  expect(measured.numberColumn).toMatch(/^(-webkit-)?right$/);
  expect(measured.pre).toMatchObject({ shaded: true, colour: true });
  expect(measured.pre.padding).toBeGreaterThanOrEqual(12);
  expect(measured.inlineCode.shaded).toBe(true);
  expect(measured.inlineCode.padding).toBeGreaterThan(0);
  expect(measured.quote.rule).toBeGreaterThanOrEqual(3);
  expect(measured.quote.indent).toBeGreaterThanOrEqual(12);
  expect(measured.lists).toMatchObject({
    ul: "disc",
    nestedUl: "circle",
    ol: "decimal",
    nestedOl: "lower-alpha",
  });
  expect(measured.lists.indent).toBeGreaterThanOrEqual(16);
  expect(measured.hr.line).toBeGreaterThanOrEqual(1);
  expect(measured.hr.space).toBeGreaterThanOrEqual(24);
  expect(measured.headings.h2).toBeGreaterThan(measured.headings.h3);
  expect(measured.headings.h3).toBeGreaterThan(measured.headings.paragraph);
  expect(measured.headings.h4).toBeGreaterThanOrEqual(600);
  expect(measured.emphasis).toBe("italic");
  expect(measured.link).toBe("underline");
  expect(measured.caption.size).toBeLessThan(measured.headings.paragraph);
  expect(measured.caption).toMatchObject({ align: "center", below: true });
  expect(measured.caption.space).toBeGreaterThan(0);
  expect(measured.fits).toEqual({ table: true, image: true, page: true });
  expect(measured.missing).toEqual([]);
}

async function view(width: number, path: string, signedIn: boolean) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: "reduce" });
  context.setDefaultTimeout(WAIT.timeout);
  if (signedIn) await context.addCookies(cookiesFor(session, server.url));
  const page = await context.newPage();
  const response = await page.goto(`${server.url}${path}`, { waitUntil: "load" });
  expect(response?.status()).toBe(200);
  return { page, close: () => context.close() };
}

/** Scrolls the post's image into view and waits until it is drawn (it loads lazily). */
async function imageShown(page: Page, selector: string) {
  const image = page.locator(`${selector} img`).first();
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(
      () =>
        image.evaluate(
          (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
        ),
      WAIT,
    )
    .toBe(true);
}

/** Keeps a screenshot: the whole page, or (`part`) one element as it shows on the screen. */
async function keep(page: Page, name: string, part?: string) {
  const target = SHOTS ?? join(dir, "shots");
  mkdirSync(target, { recursive: true });
  const path = join(target, `${name}.png`);
  if (part) await page.locator(part).screenshot({ path, animations: "disabled" });
  else await page.screenshot({ path, fullPage: true, animations: "disabled" });
}

describe("a post's typography", () => {
  for (const width of [1280, 375]) {
    it(`styles every element on the public article and the preview link at ${width} px`, async () => {
      for (const [name, path] of [
        ["article", `/blog/${slug}`],
        ["preview-link", previewUrl],
      ] as const) {
        const { page, close } = await view(width, path, false);
        try {
          await imageShown(page, ".prose-body");
          expectStyled(await measure(page, ".prose-body"));
          await keep(page, `post-typography-${name}-${width}`);
          // The table's scrolling box is reachable and named; nothing else is added.
          if (name === "article") await expectNoA11yViolations(page);
        } finally {
          await close();
        }
      }
    }, 60_000);

    it(`styles every element in the editor's live preview at ${width} px`, async () => {
      const { page, close } = await view(width, `/admin/content/${postId}`, true);
      try {
        await page.waitForSelector("html[data-hydrated]", { state: "attached" });
        // On a narrow screen the preview is a tab beside the text.
        if (width < 1280) await page.getByRole("button", { name: "Preview", exact: true }).click();
        const preview = "[data-preview]";
        await imageShown(page, preview);
        expectStyled(await measure(page, preview));
        // The preview scrolls inside its own box: shown at its table, then at its top.
        await page.locator(`${preview} .table-scroll`).scrollIntoViewIfNeeded();
        await keep(page, `post-typography-editor-${width}-table`, 'section[aria-label="Preview"]');
        await page.locator(`${preview} h2`).scrollIntoViewIfNeeded();
        await keep(page, `post-typography-editor-${width}`, 'section[aria-label="Preview"]');
      } finally {
        await close();
      }
    }, 60_000);
  }
});
