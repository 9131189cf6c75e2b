import type { Locator, Page, Response } from "playwright-core";
import { baseUrl, type OpenedPage, openPage, type PageOptions, waitForHydration } from "./browser.ts";

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

/** Opens `path` in a fresh browser context that carries `session` (a Cookie header value). */
export async function openSignedIn(
  path: string,
  options: PageOptions,
  session: string,
): Promise<OpenedPage & { answer: Response | null }> {
  const opened = await openPage("/admin/login", options);
  await opened.context.addCookies(cookiesFor(session));
  const answer = await goto(opened.page, path, options.javaScript !== false);
  return { ...opened, answer };
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
