// How much JavaScript a page makes the browser download before the visitor interacts with it, and
// what it loads later, measured one way everywhere (issue 11):
// - counted: every external script (`<script src>`) and `<link rel="modulepreload">`, followed
//   recursively through their static imports (`import … from`, `export … from`, `import "…"`); the
//   body of every executable inline script (JSON-LD and other data blocks are not scripts), and what
//   an inline module script imports, statically or with `import()` (its top level runs at load, as
//   React Router's hydration script does);
// - lazy, reported apart and not counted: what a script file loads with `import()`, followed the same
//   way (zod on a form's first focus, the toast view with the first toast), minus what is counted.
// Sizes are gzip level 9 (the budget's unit) and brotli quality 11, per file. Used by
// scripts/page-weight.ts, scripts/lighthouse.ts and the budget test.
import { join } from "node:path";
import { listBlogSlugs, staticPublicPaths } from "../../app/features/content/public-paths.ts";

/** Issue 11's budgets, gzipped JavaScript counted as above: the pages whose form is an island… */
export const FORM_PAGE_BUDGET_GZIP_BYTES = 70 * 1024;
/** …and every other public page, whose behaviour is the enhancement script alone. */
export const CONTENT_PAGE_BUDGET_GZIP_BYTES = 5 * 1024;
/** The public pages that hydrate a form as an island (ADR 013). */
export const FORM_PAGES: readonly string[] = ["/", "/demo", "/invest"];

/** The budget of a public page: 70 KB for a form page, 5 KB for any other (404s included). */
export function budgetFor(page: string): number {
  return FORM_PAGES.includes(page) ? FORM_PAGE_BUDGET_GZIP_BYTES : CONTENT_PAGE_BUDGET_GZIP_BYTES;
}

export {
  type InlineScriptSize,
  javascriptForPage,
  type PageJavaScript,
  type ScriptSize,
  type SizeCache,
  scriptsInHtml,
} from "../../server/page-javascript.ts";

/** Every prerendered public page: the fixed pages plus `/blog/<slug>` for each published article. */
export function publicPages(rootDir: string): string[] {
  const slugs = listBlogSlugs(join(rootDir, "content", "blog"));
  return [...staticPublicPaths, ...slugs.map((slug) => `/blog/${slug}`)];
}

/** The server-rendered public pages a visitor can meet that are not prerendered: the two 404s. */
export const NOT_FOUND_PAGES: readonly string[] = ["/this-page-does-not-exist", "/blog/no-such-article"];

/** The prerendered HTML file of a page: `/` → index.html, `/problem` → problem/index.html. */
export function htmlFileForPage(clientDir: string, pagePath: string): string {
  const trimmed = pagePath.replace(/^\/+|\/+$/g, "");
  return trimmed ? join(clientDir, ...trimmed.split("/"), "index.html") : join(clientDir, "index.html");
}

/** Bytes → `12.3` (KiB, one decimal), the unit of every table the scripts print. */
export function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}
