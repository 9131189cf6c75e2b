// `node scripts/screenshots-public.ts [--out DIR] [--js] [--figures] [--widths 1280,375] [path ...]`: public pages as a visitor sees
// them, full page at 1280 and 375 px (and screen-sized parts on the phone), by default with
// JavaScript off, as the pages that hydrate nothing are seen. Starts the production build on a
// throwaway SQLite database. For looking at the pages while designing them; not part of the tests.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM_HEADLESS_ARGS, CHROMIUM_PATH } from "./lib/chromium.ts";
import { runMain } from "./lib/run-main.ts";
import { type RunningServer, startServer } from "./lib/server-process.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string", default: "screenshots" },
    js: { type: "boolean", default: false },
    widths: { type: "string", default: "1280,375" },
    /** Also each <figure> on its own, at its real size (the product visuals). */
    figures: { type: "boolean", default: false },
  },
});

const dir = mkdtempSync(join(tmpdir(), "shots-public-"));
let server: RunningServer | undefined;

const fileName = (path: string) => (path === "/" ? "home" : path.replace(/^\//, "").replace(/\//g, "-"));

async function main(): Promise<number> {
  const out = values.out ?? "screenshots";
  mkdirSync(out, { recursive: true });
  const paths = positionals.length > 0 ? positionals : ["/", "/features", "/solution"];
  const widths = (values.widths ?? "1280,375").split(",").map(Number);
  server = await startServer({ DATABASE_URL: join(dir, "app.sqlite"), LOG_LEVEL: "error" });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_HEADLESS_ARGS] });
  try {
    for (const width of widths) {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        javaScriptEnabled: values.js ?? false,
      });
      const page = await context.newPage();
      for (const path of paths) {
        await page.goto(`${server.url}${path}`, { waitUntil: "load" });
        const file = `${fileName(path)}-${width}`;
        await page.screenshot({ path: join(out, `${file}.png`), fullPage: true });
        await page.screenshot({ path: join(out, `${file}-top.png`) });
        if (values.figures) {
          // The sticky header would cover the top of a figure scrolled into view.
          await page.evaluate(() => {
            const header = document.querySelector("header");
            if (header) header.style.position = "static";
          });
          const figures = await page.locator("main figure").all();
          for (const [index, figure] of figures.entries())
            await figure.screenshot({ path: join(out, `${file}-figure${index + 1}.png`) });
        }
        if (width < 768) {
          // Phone pages are long: also in screen-sized parts, readable at their real size.
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          for (let part = 0; part * 800 < height; part++)
            await page.screenshot({
              path: join(out, `${file}-part${part + 1}.png`),
              fullPage: true,
              clip: { x: 0, y: part * 800, width, height: Math.min(800, height - part * 800) },
            });
        }
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  console.log(`Screenshots in ${out}/`);
  return 0;
}

await runMain("screenshots-public", main, async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});
