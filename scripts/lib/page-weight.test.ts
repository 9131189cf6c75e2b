import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  budgetFor,
  CONTENT_PAGE_BUDGET_GZIP_BYTES,
  FORM_PAGE_BUDGET_GZIP_BYTES,
  htmlFileForPage,
  javascriptForPage,
  publicPages,
  type SizeCache,
  scriptsInHtml,
} from "./page-weight.ts";

const FIXTURE_HTML = `<!DOCTYPE html><html><head>
<link rel="modulepreload" href="/assets/react-2.js"/>
<link rel="stylesheet" href="/assets/app-4.css"/>
<link rel="preload" as="image" href="/hero.webp"/>
<script type="application/ld+json">{"import":"from \\"/assets/not-a-script.js\\""}</script>
<script type="application/json">{"x":"import('/assets/not-a-script.js')"}</script>
</head><body>
<script>window.__ctx = {};</script>
<script type="module">import "/assets/inline-imported-8.js";
import("/assets/entry-1.js");</script>
<script type="module" src="/assets/entry-1.js"></script>
<script src="https://cdn.example.com/widget.js"></script>
<script type="module" src="/assets/missing-9.js"></script>
</body></html>`;

const FILES: Record<string, string> = {
  "entry-1.js": `import{r as e}from"./react-2.js";import"./shared-3.js";e();const l=()=>import("./lazy-4.js");`,
  "react-2.js": "export function r(){return 'react'}".repeat(30),
  "shared-3.js": `export * from "./deep-5.js";`,
  "lazy-4.js": `import "./react-2.js";import "./lazy-dep-6.js";export default 1;import("./lazier-7.js");`,
  "deep-5.js": "export const d = 1;",
  "lazy-dep-6.js": "export const z = 'zod';".repeat(40),
  "lazier-7.js": "export const toast = 1;",
  "inline-imported-8.js": "export const manifest = {};",
  "not-a-script.js": "should not be counted",
};

const INLINE_CLASSIC = "window.__ctx = {};";
const INLINE_MODULE = `import "/assets/inline-imported-8.js";\nimport("/assets/entry-1.js");`;

let clientDir = "";
const file = (name: string) => join(clientDir, "assets", name);
const gzipOf = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;

beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), "page-weight-"));
  mkdirSync(join(clientDir, "assets"));
  for (const [name, body] of Object.entries(FILES)) writeFileSync(join(clientDir, "assets", name), body);
});

afterAll(() => {
  if (clientDir) rmSync(clientDir, { recursive: true, force: true });
});

describe("scriptsInHtml", () => {
  test("collects modulepreloads and script src once each, in document order, and executable inline bodies", () => {
    expect(scriptsInHtml(FIXTURE_HTML)).toEqual({
      urls: [
        "/assets/react-2.js",
        "/assets/entry-1.js",
        "https://cdn.example.com/widget.js",
        "/assets/missing-9.js",
      ],
      inline: [
        { body: INLINE_CLASSIC, module: false },
        { body: INLINE_MODULE, module: true },
      ],
    });
  });

  test("ignores stylesheets, image preloads, JSON-LD and other data blocks", () => {
    const { urls, inline } = scriptsInHtml(FIXTURE_HTML);
    expect(urls.join(" ")).not.toMatch(/app-4\.css|hero\.webp|not-a-script/);
    expect(inline.map((script) => script.body).join(" ")).not.toContain("not-a-script");
  });
});

describe("javascriptForPage", () => {
  test("counts every script and, recursively, its static imports, each once", () => {
    const result = javascriptForPage(FIXTURE_HTML, clientDir);
    expect(result.files.map((entry) => entry.url)).toEqual([
      "/assets/react-2.js",
      "/assets/entry-1.js",
      "/assets/shared-3.js",
      "/assets/deep-5.js",
      "/assets/inline-imported-8.js",
    ]);
    expect(result.files.map((entry) => entry.file)).toEqual(
      ["react-2.js", "entry-1.js", "shared-3.js", "deep-5.js", "inline-imported-8.js"].map(file),
    );
  });

  test("counts the inline scripts' bodies, and the totals are gzip level 9 per file", () => {
    const result = javascriptForPage(FIXTURE_HTML, clientDir);
    expect(result.inline.map((script) => script.gzip)).toEqual([
      gzipOf(INLINE_CLASSIC),
      gzipOf(INLINE_MODULE),
    ]);
    const counted = ["react-2.js", "entry-1.js", "shared-3.js", "deep-5.js", "inline-imported-8.js"];
    const gzip = counted.reduce((sum, name) => sum + gzipOf(FILES[name] ?? ""), 0);
    expect(result.gzip).toBe(gzip + gzipOf(INLINE_CLASSIC) + gzipOf(INLINE_MODULE));
    const bytes = counted.reduce((sum, name) => sum + Buffer.byteLength(FILES[name] ?? ""), 0);
    expect(result.bytes).toBe(bytes + INLINE_CLASSIC.length + INLINE_MODULE.length);
    expect(result.brotli).toBeGreaterThan(0);
  });

  test("reports what a script file loads with import() apart, without counting it", () => {
    const result = javascriptForPage(FIXTURE_HTML, clientDir);
    // react-2.js, which lazy-4.js also imports, is already counted.
    expect(result.lazy.map((entry) => entry.url)).toEqual([
      "/assets/lazy-4.js",
      "/assets/lazy-dep-6.js",
      "/assets/lazier-7.js",
    ]);
    expect(result.lazyGzip).toBe(
      gzipOf(FILES["lazy-4.js"] ?? "") +
        gzipOf(FILES["lazy-dep-6.js"] ?? "") +
        gzipOf(FILES["lazier-7.js"] ?? ""),
    );
    expect(result.files.map((entry) => entry.url)).not.toContain("/assets/lazy-4.js");
  });

  test("reports missing files and other origins without counting them", () => {
    const result = javascriptForPage(FIXTURE_HTML, clientDir);
    expect(result.missing).toEqual(["/assets/missing-9.js"]);
    expect(result.external).toEqual(["https://cdn.example.com/widget.js"]);
  });

  test("resolves relative script URLs against the page", () => {
    const result = javascriptForPage(
      '<script type="module" src="../assets/deep-5.js"></script>',
      clientDir,
      undefined,
      "/blog/post",
    );
    expect(result.files.map((entry) => entry.url)).toEqual(["/assets/deep-5.js"]);
  });

  test("never reads outside the client folder", () => {
    const result = javascriptForPage('<script src="/../../etc/passwd"></script>', clientDir);
    expect(result.files).toEqual([]);
    expect(result.gzip).toBe(0);
  });

  test("a shared cache reads each file once across pages", () => {
    const cache: SizeCache = new Map();
    const first = javascriptForPage(FIXTURE_HTML, clientDir, cache);
    const second = javascriptForPage(
      '<link rel="modulepreload" href="/assets/react-2.js">',
      clientDir,
      cache,
    );
    expect(cache.size).toBe(first.files.length + first.lazy.length);
    expect(second.files[0]).toEqual(first.files.find((entry) => entry.url === "/assets/react-2.js"));
  });

  test("a page without scripts ships nothing", () => {
    expect(javascriptForPage("<p>static</p>", clientDir)).toMatchObject({
      files: [],
      inline: [],
      lazy: [],
      gzip: 0,
      brotli: 0,
    });
  });
});

describe("budgets", () => {
  test("70 KB on the form pages, 5 KB on every other page", () => {
    expect(FORM_PAGE_BUDGET_GZIP_BYTES).toBe(70 * 1024);
    expect(CONTENT_PAGE_BUDGET_GZIP_BYTES).toBe(5 * 1024);
    for (const page of ["/", "/demo", "/invest"]) expect(budgetFor(page)).toBe(FORM_PAGE_BUDGET_GZIP_BYTES);
    for (const page of ["/problem", "/blog/a-post", "/investor-deck", "/no-such-page"])
      expect(budgetFor(page)).toBe(CONTENT_PAGE_BUDGET_GZIP_BYTES);
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
