// `node scripts/page-weight.ts [--json FILE]`: the JavaScript each public page ships, read from the
// production build (no browser, no server; about a second). Builds first when build/ is missing.
// Budget from the performance issue: at most 100 KB of gzipped JavaScript per page.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import {
  htmlFileForPage,
  JS_BUDGET_GZIP_BYTES,
  javascriptForPage,
  kb,
  type PageJavaScript,
  publicPages,
  type SizeCache,
} from "./lib/page-weight.ts";

const root = join(import.meta.dirname, "..");
const clientDir = join(root, "build", "client");

export type PageWeightRow = { page: string } & PageJavaScript;

/** Measures every public page of the current build (throws when a page's HTML is missing). */
export function measurePages(pages: string[] = publicPages(root)): PageWeightRow[] {
  const cache: SizeCache = new Map();
  return pages.map((page) => {
    const htmlFile = htmlFileForPage(clientDir, page);
    if (!existsSync(htmlFile))
      throw new Error(`No prerendered HTML for ${page} (${relative(root, htmlFile)})`);
    return { page, ...javascriptForPage(readFileSync(htmlFile, "utf8"), clientDir, cache) };
  });
}

/** Markdown table: page, scripts, raw/gzip/brotli KB, budget verdict. */
export function pageWeightTable(rows: PageWeightRow[]): string {
  const lines = [
    "| Page | Scripts | Raw KB | gzip KB | brotli KB | ≤ 100 KB gzip |",
    "| --- | ---: | ---: | ---: | ---: | :---: |",
  ];
  for (const row of rows) {
    const verdict = row.gzip <= JS_BUDGET_GZIP_BYTES ? "yes" : "**no**";
    lines.push(
      `| ${row.page} | ${row.files.length} | ${kb(row.bytes)} | ${kb(row.gzip)} | ${kb(row.brotli)} | ${verdict} |`,
    );
  }
  return lines.join("\n");
}

/** Warnings for scripts a page refers to that the build does not contain. */
export function pageWeightWarnings(rows: PageWeightRow[]): string[] {
  return rows.flatMap((row) => [
    ...row.missing.map((url) => `${row.page}: ${url} is referenced but not in build/client`),
    ...row.external.map((url) => `${row.page}: ${url} is not served by this site (not counted)`),
  ]);
}

export function ensureBuild(): void {
  if (existsSync(join(root, "build", "static-manifest.json"))) return;
  console.log("No production build (build/static-manifest.json): running `npm run build` first.");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

function main() {
  const { values } = parseArgs({
    options: { json: { type: "string" }, verbose: { type: "boolean", short: "v" } },
  });
  ensureBuild();
  const rows = measurePages();
  console.log(pageWeightTable(rows));
  if (values.verbose) {
    for (const row of rows) {
      console.log(`\n${row.page}`);
      for (const file of [...row.files].sort((a, b) => b.gzip - a.gzip)) {
        console.log(`  ${kb(file.gzip).padStart(7)} KB gzip  ${file.url}`);
      }
    }
  }
  for (const warning of pageWeightWarnings(rows)) console.warn(`warning: ${warning}`);
  const over = rows.filter((row) => row.gzip > JS_BUDGET_GZIP_BYTES).map((row) => row.page);
  console.log(
    over.length === 0
      ? `\nEvery page is within ${kb(JS_BUDGET_GZIP_BYTES)} KB of gzipped JavaScript.`
      : `\nOver the ${kb(JS_BUDGET_GZIP_BYTES)} KB gzip budget: ${over.join(", ")}`,
  );
  if (values.json) {
    const pages = rows.map(({ files, ...totals }) => ({
      ...totals,
      files: files.map(({ url, bytes, gzip, brotli }) => ({ url, bytes, gzip, brotli })),
    }));
    writeFileSync(
      values.json,
      `${JSON.stringify({ measuredAt: new Date().toISOString(), pages }, null, 2)}\n`,
    );
    console.log(`Saved ${values.json}`);
  }
}

if (import.meta.main) {
  try {
    main();
  } catch (error) {
    console.error(`page-weight: ${(error as Error).message}`);
    process.exit(1);
  }
}
