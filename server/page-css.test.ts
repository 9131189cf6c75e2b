import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withPageCss } from "./page-css.ts";

const CSS = [
  ".hero{color:red}",
  ".unused-card{color:blue}",
  "@media (width>=48rem){.md\\:grid-cols-2{grid-template-columns:repeat(2,minmax(0,1fr))}}",
  ".w-\\[42rem\\]{width:42rem}",
  ".aria-invalid\\:border-red-600[aria-invalid=true]{border-color:red}",
  ".from-script{display:block}",
  ".from-lazy-chunk{display:flex}",
  ".admin-only{display:grid}",
  "body{margin:0}",
  "table{border:0}",
  ":focus-visible{outline:3px solid}",
  ".hero,.unused-card{padding:0}",
  "@media (width>=64rem){.admin-only{display:block}}",
  ":root{--brand:#12355b}",
  "@keyframes spin{to{transform:rotate(360deg)}}",
].join("");

const page = (css: string) => `<!DOCTYPE html><html><head><style>${css}</style></head><body>
<h1 class="hero md:grid-cols-2 w-[42rem]">Hi</h1>
<input aria-invalid="false" class="aria-invalid:border-red-600">
<script type="module" src="/assets/enhance-1.js"></script>
</body></html>`;

let clientDir = "";

beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), "page-css-"));
  mkdirSync(join(clientDir, "assets"));
  writeFileSync(
    join(clientDir, "assets", "enhance-1.js"),
    `el.classList.add("from-script");const l=()=>import("./lazy-2.js");`,
  );
  writeFileSync(join(clientDir, "assets", "lazy-2.js"), `export const c = "from-lazy-chunk";`);
});

afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

describe("withPageCss", () => {
  test("keeps the rules the page and its scripts can use, and drops the others", async () => {
    const html = withPageCss(page(CSS), "/", clientDir, new Map());
    const css = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? "";
    // Used by the page, with Tailwind's variant and arbitrary-value names intact.
    expect(css).toContain(".hero{");
    expect(css).toContain(".md\\:grid-cols-2{");
    expect(css).toContain(".w-\\[42rem\\]{");
    expect(css).toContain(".aria-invalid\\:border-red-600[aria-invalid=true]");
    // Classes a script adds, now or from a chunk it loads later.
    expect(css).toContain(".from-script{");
    expect(css).toContain(".from-lazy-chunk{");
    // Only classes decide: rules on tags and pseudo-classes, custom properties and keyframes stay.
    expect(css).toContain("body{");
    expect(css).toContain("table{");
    expect(css).toContain(":focus-visible{outline:3px solid}");
    expect(css).toContain("--brand:#12355b");
    expect(css).toContain("@keyframes spin");
    // Nothing on the page or in its scripts names these.
    expect(css).not.toContain("unused-card");
    expect(css).not.toContain("admin-only");
    // A selector list loses only the selectors naming an unused class; an emptied block goes.
    expect(css).toContain(".hero{padding:0}");
    expect(css).not.toContain("width>=64rem");
    // The rest of the document is untouched.
    expect(html.replace(/<style>[\s\S]*<\/style>/, "")).toBe(
      page(CSS).replace(/<style>[\s\S]*<\/style>/, ""),
    );
  });

  test("keeps a rule whose class holds & or >, as React escapes it in the page and a script keeps it", () => {
    // Tailwind's names for `[&::-webkit-details-marker]:hidden` (the site header's menu button) and
    // `[&>svg]:size-full` (written in a script's string).
    const marker = ".\\[\\&\\:\\:-webkit-details-marker\\]\\:hidden::-webkit-details-marker{display:none}";
    const child = ".\\[\\&\\>svg\\]\\:size-full>svg{width:100%}";
    const unused = ".\\[\\&_p\\]\\:mt-2 p{margin-top:.5rem}";
    const html = `<!DOCTYPE html><html><head><style>${marker}${child}${unused}</style></head><body>
<details><summary class="list-none [&amp;::-webkit-details-marker]:hidden">Menu</summary></details>
<script type="module" src="/assets/svg-3.js"></script>
</body></html>`;
    writeFileSync(join(clientDir, "assets", "svg-3.js"), `const c="grid [&>svg]:size-full";`);
    const css = /<style>([\s\S]*)<\/style>/.exec(withPageCss(html, "/", clientDir, new Map()))?.[1] ?? "";
    expect(css).toContain("::-webkit-details-marker{display:none}");
    expect(css).toContain(">svg{width:100%}");
    expect(css).not.toContain("margin-top");
  });

  test("leaves a document without an inline stylesheet as it is", async () => {
    const html = '<html><head><link rel="stylesheet" href="/assets/app.css"></head><body></body></html>';
    expect(withPageCss(html, "/admin/login", clientDir, new Map())).toBe(html);
  });
});
