// `node scripts/page-weight.ts [-v] [--json FILE] [--no-server]`: the JavaScript each public page
// ships, measured as scripts/lib/page-weight.ts describes, from the production build: every
// prerendered page read from build/client, then the 404 pages as the server renders them (it starts
// server.ts for a moment; --no-server skips them). Builds first when build/ is missing. Budgets
// (issue 11): 70 KB of gzipped JavaScript on a form page, 5 KB on any other; exits 1 when a page is
// over its budget.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import {
  budgetFor,
  htmlFileForPage,
  javascriptForPage,
  kb,
  NOT_FOUND_PAGES,
  type PageJavaScript,
  publicPages,
  type SizeCache,
} from "./lib/page-weight.ts";
import { startServer } from "./lib/server-process.ts";

const root = join(import.meta.dirname, "..");
const clientDir = join(root, "build", "client");

export type PageWeightRow = { page: string; budget: number } & PageJavaScript;

/** Measures prerendered public pages of the current build (throws when a page's HTML is missing). */
export function measurePages(
  pages: string[] = publicPages(root),
  cache: SizeCache = new Map(),
): PageWeightRow[] {
  return pages.map((page) => {
    const htmlFile = htmlFileForPage(clientDir, page);
    if (!existsSync(htmlFile))
      throw new Error(`No prerendered HTML for ${page} (${relative(root, htmlFile)})`);
    const html = readFileSync(htmlFile, "utf8");
    return { page, budget: budgetFor(page), ...javascriptForPage(html, clientDir, cache, page) };
  });
}

/** Measures pages as a running server (`baseUrl`) answers them: the 404s are not prerendered. */
export async function measureServedPages(
  baseUrl: string,
  pages: readonly string[] = NOT_FOUND_PAGES,
  cache: SizeCache = new Map(),
): Promise<PageWeightRow[]> {
  const rows: PageWeightRow[] = [];
  for (const page of pages) {
    const response = await fetch(new URL(page, baseUrl));
    const html = await response.text();
    rows.push({ page, budget: budgetFor(page), ...javascriptForPage(html, clientDir, cache, page) });
  }
  return rows;
}

/** Markdown table: page, scripts, raw/gzip/brotli KB, the budget and the verdict, lazy code apart. */
export function pageWeightTable(rows: PageWeightRow[]): string {
  const lines = [
    "| Page | Scripts (files + inline) | Raw KB | gzip KB | brotli KB | Budget KB (gzip) | Within | Lazy gzip KB |",
    "| --- | ---: | ---: | ---: | ---: | ---: | :---: | ---: |",
  ];
  for (const row of rows) {
    const verdict = row.gzip <= row.budget ? "yes" : "**no**";
    const scripts = `${row.files.length} + ${row.inline.length}`;
    lines.push(
      `| ${row.page} | ${scripts} | ${kb(row.bytes)} | ${kb(row.gzip)} | ${kb(row.brotli)} | ${kb(row.budget)} | ${verdict} | ${kb(row.lazyGzip)} |`,
    );
  }
  return lines.join("\n");
}

/** Warnings for scripts a page refers to that the build does not contain, or other origins'. */
export function pageWeightWarnings(rows: PageWeightRow[]): string[] {
  return rows.flatMap((row) => [
    ...row.missing.map((url) => `${row.page}: ${url} is referenced but not in build/client`),
    ...row.external.map((url) => `${row.page}: ${url} is not served by this site (not counted)`),
  ]);
}

export function ensureBuild(checkout = root): void {
  if (existsSync(join(checkout, "build", "static-manifest.json"))) return;
  console.log(
    `No production build (${join(checkout, "build", "static-manifest.json")}): running \`npm run build\` first.`,
  );
  const result = spawnSync("npm", ["run", "build"], { cwd: checkout, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

/** Has the build a prerendered file for this page? The blog's pages are rendered by the server (issue 24). */
export function isPrerendered(page: string): boolean {
  return existsSync(htmlFileForPage(clientDir, page));
}

async function measureWithServer(pages: readonly string[], cache: SizeCache): Promise<PageWeightRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "page-weight-"));
  const server = await startServer({ DATABASE_URL: join(dir, "app.sqlite"), LOG_LEVEL: "error" });
  try {
    return await measureServedPages(server.url, pages, cache);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      json: { type: "string" },
      verbose: { type: "boolean", short: "v" },
      "no-server": { type: "boolean" },
    },
  });
  ensureBuild();
  const cache: SizeCache = new Map();
  const pages = publicPages(root);
  const rows = measurePages(pages.filter(isPrerendered), cache);
  // The blog's pages come from the server (issue 24), like the 404s.
  if (!values["no-server"])
    rows.push(
      ...(await measureWithServer(
        [...pages.filter((page) => !isPrerendered(page)), ...NOT_FOUND_PAGES],
        cache,
      )),
    );
  console.log(pageWeightTable(rows));
  if (values.verbose) {
    for (const row of rows) {
      console.log(`\n${row.page}`);
      for (const file of [...row.files].sort((a, b) => b.gzip - a.gzip))
        console.log(`  ${kb(file.gzip).padStart(7)} KB gzip  ${file.url}`);
      for (const script of row.inline)
        console.log(`  ${kb(script.gzip).padStart(7)} KB gzip  inline: ${script.preview}`);
      for (const file of [...row.lazy].sort((a, b) => b.gzip - a.gzip))
        console.log(`  ${kb(file.gzip).padStart(7)} KB gzip  lazy: ${file.url}`);
    }
  }
  for (const warning of pageWeightWarnings(rows)) console.warn(`warning: ${warning}`);
  const over = rows.filter((row) => row.gzip > row.budget);
  console.log(
    over.length === 0
      ? "\nEvery page is within its budget."
      : `\nOver budget: ${over.map((row) => `${row.page} ${kb(row.gzip)} KB > ${kb(row.budget)} KB`).join(", ")}`,
  );
  if (values.json) {
    const pages = rows.map(({ files, lazy, ...totals }) => ({
      ...totals,
      files: files.map(({ url, bytes, gzip, brotli }) => ({ url, bytes, gzip, brotli })),
      lazy: lazy.map(({ url, bytes, gzip, brotli }) => ({ url, bytes, gzip, brotli })),
    }));
    writeFileSync(
      values.json,
      `${JSON.stringify({ measuredAt: new Date().toISOString(), pages }, null, 2)}\n`,
    );
    console.log(`Saved ${values.json}`);
  }
  return over.length === 0 ? 0 : 1;
}

if (import.meta.main) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`page-weight: ${(error as Error).message}`);
      process.exit(2);
    },
  );
}
