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
  /** The browser's time zone (IANA), as a visitor abroad has it; the machine's when not given. */
  timezoneId?: string;
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
    timezoneId: options.timezoneId,
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

type AxeViolation = {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[]; any: { message: string }[]; failureSummary?: string }[];
};

/** How long a page may take to come to rest before an audit (far more than any of our transitions). */
const SETTLE_TIMEOUT = 10_000;

/**
 * Waits until the page is at rest, as a person reads it: React Router has no navigation, revalidation
 * or fetcher under way and the page shows it, and no CSS transition or animation of finite length is
 * running (a spinner's or a pulse's endless one is part of the page). NOTE: axe measures colours as
 * they are painted at that instant; with the back office's pending dim still on or fading back
 * (app-shell.tsx) it reports blended colours that nobody reads once the page settles (issue 33).
 */
export async function waitForSettledPage(page: Page) {
  await waitForRouterIdle(page);
  await waitForAnimations(page);
}

async function waitForRouterIdle(page: Page) {
  await page.waitForFunction(
    () => {
      type Router = {
        state: {
          navigation: { state: string };
          revalidation: string;
          fetchers: Map<string, { state: string }>;
        };
      };
      // The router says idle before React has rendered the result (its updates are transitions): the
      // shell's <main aria-busy> (app-shell.tsx) is what the page shows until then.
      if (document.querySelector("main[aria-busy='true']")) return false;
      const router = (window as unknown as { __reactRouterDataRouter?: Router }).__reactRouterDataRouter;
      if (!router) return true;
      const { navigation, revalidation, fetchers } = router.state;
      return (
        navigation.state === "idle" &&
        revalidation === "idle" &&
        [...fetchers.values()].every((fetcher) => fetcher.state === "idle")
      );
    },
    undefined,
    { timeout: SETTLE_TIMEOUT },
  );
}

async function waitForAnimations(page: Page) {
  await page.evaluate(async (timeout) => {
    const deadline = performance.now() + timeout;
    for (;;) {
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === "running" &&
            Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY),
        );
      if (running.length === 0) return;
      const left = deadline - performance.now();
      if (left <= 0) {
        const names = running.map((animation) =>
          animation instanceof CSSTransition
            ? `transition of ${animation.transitionProperty}`
            : animation instanceof CSSAnimation
              ? `animation ${animation.animationName}`
              : "script animation",
        );
        throw new Error(`The page is still animating after ${timeout} ms: ${names.join(", ")}`);
      }
      await Promise.race([
        Promise.all(running.map((animation) => animation.finished.catch(() => undefined))),
        new Promise((resolve) => setTimeout(resolve, left)),
      ]);
    }
  }, SETTLE_TIMEOUT);
}

/** Runs axe-core (WCAG 2.0–2.2 A and AA rules) on the settled page and fails with a readable list. */
export async function expectNoA11yViolations(page: Page) {
  // The router first: a revalidation's render may still move the page (e.g. the webhook secret's panel
  // scrolls itself into view).
  await waitForRouterIdle(page);
  // From the top of the page: axe's target-size rule counts a button scrolled under the back office's
  // sticky top bar as obscured, which says where the test left the scroll, not what a person meets.
  // Instantly: without reduced motion `scroll-behavior: smooth` (app.css) would make this a scroll
  // still under way while axe measures.
  await page.evaluate(() => window.scrollTo({ top: 0, left: 0, behavior: "instant" }));
  await waitForAnimations(page);
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
  // Each node with axe's own words and figures (e.g. the contrast ratio and both colours).
  const readable = (violations as AxeViolation[]).map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => `${n.target.join(" ")}: ${n.any[0]?.message ?? n.failureSummary ?? ""}`)
        .join("; ")}`,
  );
  expect(readable).toEqual([]);
}
