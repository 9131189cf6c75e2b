import type { Page } from "playwright-core";

/** Opens the content studio editor's Publish menu (a <details>), unless it is open already. */
export async function openPublishMenu(page: Page) {
  const menu = page
    .locator("details:has(> summary)")
    .filter({ has: page.locator("#publishAt, [value=unpublish]") });
  if (!(await menu.evaluate((element) => (element as HTMLDetailsElement).open)))
    await menu.locator("summary").click();
}
