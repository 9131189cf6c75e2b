import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Locator, Page, Response } from "playwright-core";
import {
  baseUrl,
  DESKTOP,
  type OpenedPage,
  openPage,
  type PageOptions,
  waitForHydration,
} from "./browser.ts";

// Page helpers the back-office journeys share: carrying a session into a browser context, going to
// a page and waiting for hydration, and reading what a visitor sees.

const WAIT = { timeout: 10_000 };

/** A `Cookie` header value (from signIn) as cookies for a browser context. */
export function cookiesFor(header: string, url = baseUrl) {
  return header.split("; ").map((pair) => {
    const [name = "", ...value] = pair.split("=");
    return { name, value: value.join("="), url };
  });
}

export async function goto(page: Page, path: string, javaScript = true) {
  const response = await page.goto(new URL(path, baseUrl).href, { waitUntil: "load" });
  if (javaScript) await waitForHydration(page);
  return response;
}

/**
 * A server a test file starts for itself (a database it seeds) and the Chromium it launched
 * (launchTestBrowser), in place of the suite's shared server and setupBrowser()'s Chromium.
 */
export type OwnServer = {
  browser: Browser;
  server: { url: string };
  /** Every action in the page fails within this instead of hanging until the test's own time-out. */
  timeout: number;
};

/**
 * Opens `path` in a fresh browser context that carries `session` (a Cookie header value): on the
 * suite's server through openPage (unexpected console errors fail the test at close), or on `own`.
 * NOTE: on `own` the context is signed in before its first request, `reducedMotion` is Chromium's
 * own unless given, and only the viewport, JavaScript and time-zone options apply: openPage's
 * rewriting of the document and its console check are the suite server's.
 */
export async function openSignedIn(
  path: string,
  options: PageOptions,
  session: string,
  own?: OwnServer,
): Promise<OpenedPage & { answer: Response | null }> {
  const javaScript = options.javaScript !== false;
  if (!own) {
    const opened = await openPage("/admin/login", options);
    await opened.context.addCookies(cookiesFor(session));
    const answer = await goto(opened.page, path, javaScript);
    return { ...opened, answer };
  }
  const context = await own.browser.newContext({
    javaScriptEnabled: javaScript,
    viewport: { width: options.width ?? DESKTOP.width, height: options.height ?? DESKTOP.height },
    reducedMotion: options.reducedMotion,
    timezoneId: options.timezoneId,
  });
  await context.addCookies(cookiesFor(session, own.server.url));
  context.setDefaultTimeout(own.timeout);
  const page = await context.newPage();
  const answer = await goto(page, new URL(path, own.server.url).href, javaScript);
  return { page, context, response: answer, answer, close: () => context.close() };
}

/** With SAVE_SCREENSHOTS=1, the whole page as docs/screenshots/<name>.png (the screens the docs show). */
export async function saveScreenshot(page: Page, name: string, { fullPage = true } = {}) {
  if (process.env.SAVE_SCREENSHOTS !== "1") return;
  const target = process.env.SCREENSHOT_DIR || join(process.cwd(), "docs", "screenshots");
  mkdirSync(target, { recursive: true });
  await page.screenshot({ path: join(target, `${name}.png`), fullPage });
}

export const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** What a visitor reads in an element, one line per block. */
export async function readText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\n{2,}/g, "\n").trim();
}

/** The open toast's title and description (toasts live in the 'Notifications' region). */
export async function toastText(page: Page): Promise<string> {
  const item = page
    .getByRole("region", { name: /^Notifications/ })
    .locator("li")
    .first();
  await item.waitFor(WAIT);
  return (await readText(item)).replace(/\s*×$/, "");
}

/**
 * Opens the signed-in person's avatar menu (issue 35: their account and Logout live there), the one
 * on screen: the sidebar's from 1280 px, the top bar's below.
 */
export async function openAccountMenu(page: Page) {
  await page.locator("[data-account-menu] > summary:visible").first().click();
}
