import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  budgetFor,
  javascriptForPage,
  kb,
  NOT_FOUND_PAGES,
  publicPages,
  type SizeCache,
} from "../../scripts/lib/page-weight.ts";
import { baseUrl } from "./support/browser.ts";

// Issue 11's budgets, on the pages as the server sends them (prerendered or rendered per request):
// the JavaScript a browser downloads before the visitor interacts, gzip level 9, measured as
// `node scripts/page-weight.ts` does. At most 70 KB on a form page (React and the form's island),
// 5 KB on any other (the enhancement script alone).

const root = join(import.meta.dirname, "..", "..");
const clientDir = join(root, "build", "client");
const cache: SizeCache = new Map();

async function measure(page: string) {
  const response = await fetch(new URL(page, baseUrl));
  return javascriptForPage(await response.text(), clientDir, cache, page);
}

describe("JavaScript per page", () => {
  it.each([...publicPages(root), ...NOT_FOUND_PAGES])("%s stays within its budget", async (page) => {
    const weight = await measure(page);
    expect(weight.missing, "scripts the build does not contain").toEqual([]);
    expect(weight.external, "scripts from other origins").toEqual([]);
    expect(weight.gzip, `${kb(weight.gzip)} KB of gzipped JavaScript`).toBeLessThanOrEqual(budgetFor(page));
  });

  it("the content pages load no React before the visitor interacts, the form pages only the island's", async () => {
    const problem = await measure("/problem");
    const home = await measure("/");
    // React DOM alone is over 50 KB: a content page's whole budget is a tenth of it.
    expect(problem.files.every((file) => file.gzip < 5 * 1024)).toBe(true);
    expect(home.files.some((file) => file.gzip > 50 * 1024)).toBe(true);
    // The validator (zod) waits for the form's first focus.
    expect(home.lazyGzip).toBeGreaterThan(10 * 1024);
  });
});
