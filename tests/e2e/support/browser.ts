import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Download,
  type Page,
  type Response,
} from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { CHROMIUM_HEADLESS_ARGS, TEST_CHROMIUM_PATH } from "../../../scripts/lib/chromium.ts";

export const baseUrl = inject("baseUrl");

let browser: Browser | undefined;

/**
 * A Chromium for this test file: the suite's, for this worker (tests/e2e/support/global-setup.ts),
 * connected to over its websocket; closing it closes the contexts this file opened and disconnects.
 * When the suite has none (Chromium could not start there) or it cannot be reached, a Chromium of the
 * file's own, whose failure to start then says why.
 */
export async function launchTestBrowser(): Promise<Browser> {
  const endpoints = inject("browserEndpoints") ?? [];
  const worker = Math.max(1, Number(process.env.VITEST_POOL_ID) || 1);
  const endpoint = endpoints[(worker - 1) % Math.max(1, endpoints.length)];
  if (endpoint) {
    try {
      return await chromium.connect(endpoint, { timeout: 30_000 });
    } catch (error) {
      console.warn(`The suite's Chromium could not be reached (${(error as Error).message}): launching one.`);
    }
  }
  return chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_HEADLESS_ARGS });
}

/**
 * A download's bytes. The suite's browser runs in another process (ADR 038), where Playwright keeps
 * downloads: `download.path()` answers only for a browser launched in-process, the stream always.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Gives the test file that calls it (in its top-level scope) a Chromium (launchTestBrowser). */
export function setupBrowser() {
  beforeAll(async () => {
    browser = await launchTestBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });
}

export type PageOptions = {
  javaScript?: boolean;
  width?: number;
  height?: number;
  reducedMotion?: "reduce" | "no-preference";
  /** Console errors matching these are expected (e.g. the browser's own 404 report on a 404 page). */
  allowConsoleErrors?: RegExp[];
  /**
   * The page as a visitor without JavaScript gets it, while the test can still run asynchronous
   * code in it: the document arrives with its scripts and module preloads removed (JSON-LD kept).
   * NOTE: with `javaScript: false` Chromium runs no timers or observer callbacks even for the test's
   * own evaluate, so axe and PerformanceObserver never finish there.
   */
  stripScripts?: boolean;
  /**
   * Holds the first paint until the element with this id has been parsed (a `<link rel="expect"
   * blocking="render">` added to the head). NOTE: on a busy machine Chromium paints a document
   * half-parsed, at random points; measuring layout shift needs a first paint that is always the same.
   */
  renderAfter?: string;
  /** Rewrites the page's HTML before the browser gets it (a test's variant of the document). */
  rewrite?: (html: string) => string;
};

const SCRIPT =
  /<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script>|<link\b[^>]*rel="modulepreload"[^>]*>/g;

export type OpenedPage = {
  page: Page;
  context: BrowserContext;
  response: Response | null;
  /** Closes the page and fails the test if the page logged an unexpected error. */
  close(): Promise<void>;
};

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 375, height: 740 } as const;

/** Opens `path` on the test server in a fresh context and records console errors. */
export async function openPage(path: string, options: PageOptions = {}): Promise<OpenedPage> {
  if (!browser) throw new Error("Call setupBrowser() at the top of the test file first.");
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScript ?? true,
    viewport: { width: options.width ?? DESKTOP.width, height: options.height ?? DESKTOP.height },
    reducedMotion: options.reducedMotion ?? "reduce",
  });
  const page = await context.newPage();
  if (options.stripScripts || options.renderAfter || options.rewrite) {
    await page.route(new URL(path, baseUrl).href, async (route) => {
      const response = await route.fetch();
      const { "content-encoding": _encoding, "content-length": _length, ...headers } = response.headers();
      let body = await response.text();
      if (options.stripScripts) body = body.replace(SCRIPT, "");
      if (options.rewrite) body = options.rewrite(body);
      if (options.renderAfter)
        body = body.replace(
          "<head>",
          `<head><link rel="expect" href="#${options.renderAfter}" blocking="render">`,
        );
      await route.fulfill({ status: response.status(), headers, body });
    });
  }
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  const response = await page.goto(new URL(path, baseUrl).href, { waitUntil: "load" });
  if (options.javaScript !== false && !options.stripScripts) await waitForHydration(page);
  return {
    page,
    context,
    response,
    async close() {
      await context.close();
      const unexpected = errors.filter(
        (text) => !(options.allowConsoleErrors ?? []).some((re) => re.test(text)),
      );
      expect(unexpected, `console errors on ${path}`).toEqual([]);
    },
  };
}

/**
 * Waits until the page is interactive (ADR 013): a back-office page once React Router has hydrated
 * it (app/root.tsx marks `<html data-hydrated>`); a public page once its enhancement script has run
 * (`<html data-enhanced>`, app/entry.enhance.ts) and each of its islands has hydrated (`data-hydrated`
 * on the island's container, app/islands/hydrate-islands.tsx).
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const html = document.documentElement;
    if (html.hasAttribute("data-hydrated")) return true;
    if (!html.hasAttribute("data-enhanced")) return false;
    return [...document.querySelectorAll("[data-island]")].every((island) =>
      island.hasAttribute("data-hydrated"),
    );
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** Runs axe-core (WCAG 2.0–2.2 A and AA rules) and fails with a readable list of violations. */
export async function expectNoA11yViolations(page: Page) {
  // From the top of the page: axe's target-size rule counts a button scrolled under the back office's
  // sticky top bar as obscured, which says where the test left the scroll, not what a person meets.
  await page.evaluate(() => window.scrollTo(0, 0));
  // Evaluated through the DevTools protocol, so the page's CSP does not block it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      },
    });
    return result.violations;
  });
  const readable = (violations as AxeViolation[]).map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
  expect(readable).toEqual([]);
}
