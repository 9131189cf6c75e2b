import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  htmlFileForPage,
  javascriptForPage,
  publicPages,
  type SizeCache,
  scriptUrlsInHtml,
} from "./page-weight.ts";

const FIXTURE_HTML = `<!DOCTYPE html><html><head>
<link rel="modulepreload" href="/assets/manifest-1.js"/>
<link href="/assets/entry.client-2.js" rel="modulepreload">
<link rel="modulepreload" href="/assets/root-3.js"/>
<link rel="stylesheet" href="/assets/app-4.css"/>
<link rel="preload" as="image" href="/hero.webp"/>
<script type="application/ld+json">{"import":"from \\"/assets/not-a-script.js\\""}</script>
</head><body>
<script>window.__ctx = {}; import("/assets/classic-is-ignored.js");</script>
<script type="module" async="">import "/assets/manifest-1.js";
import * as route0 from "/assets/root-3.js";
import * as route1 from '/assets/home-5.js';
import("/assets/entry.client-2.js");</script>
<script src="/assets/legacy-6.js?v=1" defer></script>
<script src="https://cdn.example.com/widget.js"></script>
<script type="module" src="/assets/missing-7.js"></script>
</body></html>`;

const FILES: Record<string, string> = {
  "manifest-1.js": `window.__manifest=${JSON.stringify({ routes: { root: { id: "root" } } })};`,
  "entry.client-2.js": "import{h as e}from'./root-3.js';e();".repeat(20),
  "root-3.js": "export function h(){return 'hydrate'}",
  "home-5.js": "export default function Home(){return null}".repeat(50),
  "legacy-6.js": "console.log('legacy')",
  "not-a-script.js": "should not be counted",
  "classic-is-ignored.js": "should not be counted",
};

let clientDir = "";

beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), "page-weight-"));
  mkdirSync(join(clientDir, "assets"));
  for (const [name, body] of Object.entries(FILES)) writeFileSync(join(clientDir, "assets", name), body);
});

afterAll(() => {
  if (clientDir) rmSync(clientDir, { recursive: true, force: true });
});

describe("scriptUrlsInHtml", () => {
  test("collects modulepreloads, script src and inline module imports once each, in document order", () => {
    expect(scriptUrlsInHtml(FIXTURE_HTML)).toEqual([
      "/assets/manifest-1.js",
      "/assets/entry.client-2.js",
      "/assets/root-3.js",
      "/assets/home-5.js",
      "/assets/legacy-6.js?v=1",
      "https://cdn.example.com/widget.js",
      "/assets/missing-7.js",
    ]);
  });

  test("ignores stylesheets, image preloads, JSON data blocks and classic inline scripts", () => {
    const urls = scriptUrlsInHtml(FIXTURE_HTML);
    expect(urls).not.toContain("/assets/app-4.css");
    expect(urls).not.toContain("/hero.webp");
    expect(urls).not.toContain("/assets/not-a-script.js");
    expect(urls).not.toContain("/assets/classic-is-ignored.js");
  });
});

describe("javascriptForPage", () => {
  test("sums the gzip (level 9) and brotli sizes of every local script", () => {
    const result = javascriptForPage(FIXTURE_HTML, clientDir);
    const counted = ["manifest-1.js", "entry.client-2.js", "root-3.js", "home-5.js", "legacy-6.js"];
    expect(result.files.map((file) => file.file)).toEqual(
      counted.map((name) => join(clientDir, "assets", name)),
    );
    const gzip = counted.reduce(
      (sum, name) => sum + gzipSync(Buffer.from(FILES[name] ?? ""), { level: 9 }).length,
      0,
    );
    const bytes = counted.reduce((sum, name) => sum + Buffer.byteLength(FILES[name] ?? ""), 0);
    expect(result.gzip).toBe(gzip);
    expect(result.bytes).toBe(bytes);
    expect(result.brotli).toBe(result.files.reduce((sum, file) => sum + file.brotli, 0));
    expect(result.brotli).toBeGreaterThan(0);
    expect(result.brotli).toBeLessThan(bytes);
  });

  test("reports missing files and other origins without counting them", () => {
    const result = javascriptForPage(FIXTURE_HTML, clientDir);
    expect(result.missing).toEqual(["/assets/missing-7.js"]);
    expect(result.external).toEqual(["https://cdn.example.com/widget.js"]);
  });

  test("never reads outside the client folder", () => {
    const result = javascriptForPage('<script src="/../../etc/passwd"></script>', clientDir);
    expect(result.files).toEqual([]);
    expect(result.gzip).toBe(0);
  });

  test("a shared cache measures each file once across pages", () => {
    const cache: SizeCache = new Map();
    const first = javascriptForPage(FIXTURE_HTML, clientDir, cache);
    const second = javascriptForPage('<link rel="modulepreload" href="/assets/root-3.js">', clientDir, cache);
    expect(cache.size).toBe(first.files.length);
    expect(second.files[0]).toEqual(first.files.find((file) => file.url === "/assets/root-3.js"));
  });

  test("a page without scripts ships nothing", () => {
    expect(javascriptForPage("<p>static</p>", clientDir)).toMatchObject({ files: [], gzip: 0, brotli: 0 });
  });
});

describe("pages", () => {
  test("maps page paths to their prerendered HTML files", () => {
    expect(htmlFileForPage("/c", "/")).toBe(join("/c", "index.html"));
    expect(htmlFileForPage("/c", "/blog/some-post")).toBe(join("/c", "blog", "some-post", "index.html"));
  });

  test("adds one article page per published content/blog markdown file", () => {
    const article = (slug: string, draft: boolean) =>
      `---\ntitle: A title long enough\nexcerpt: An excerpt that is long enough to pass validation.\ndate: 2024-11-01\nreadTime: 2\ncategory: Technology\nslug: ${slug}\ndraft: ${draft}\n---\n\n${"Word ".repeat(400)}\n`;
    const root = mkdtempSync(join(tmpdir(), "page-list-"));
    try {
      mkdirSync(join(root, "content", "blog"), { recursive: true });
      writeFileSync(join(root, "content", "blog", "b-post.md"), article("b-post", false));
      writeFileSync(join(root, "content", "blog", "a-post.md"), article("a-post", false));
      writeFileSync(join(root, "content", "blog", "c-draft.md"), article("c-draft", true));
      writeFileSync(join(root, "content", "blog", "notes.txt"), "");
      const pages = publicPages(root);
      expect(pages[0]).toBe("/");
      expect(pages.slice(-2)).toEqual(["/blog/a-post", "/blog/b-post"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
