import { describe, expect, it } from "vitest";
import { readHtml, scanTags } from "./html.ts";

describe("scanTags", () => {
  it("reads tags and attributes like a browser: case-insensitive, first attribute wins, entities decoded", () => {
    const [tag] = scanTags(
      `<META HTTP-EQUIV="Content-Security-Policy" content="default-src &apos;self&apos;" content="x">`,
    );
    expect(tag?.name).toBe("meta");
    expect(tag?.attributes.get("http-equiv")).toBe("Content-Security-Policy");
    expect(tag?.attributes.get("content")).toBe("default-src 'self'");
  });

  it("keeps '>' inside quoted values and reads unquoted and bare attributes", () => {
    const [tag] = scanTags(`<script src=/app.js async data-x="a>b" integrity='sha384-abc'></script>`);
    expect(Object.fromEntries(tag?.attributes ?? [])).toEqual({
      src: "/app.js",
      async: "",
      "data-x": "a>b",
      integrity: "sha384-abc",
    });
  });

  it("skips comments and the raw text of scripts and styles", () => {
    const html = `<!-- <script src="http://evil.test/a.js"></script> -->
      <script>document.write('<script src="http://evil.test/b.js"><\\/script>')</script>
      <style>a::before { content: "<img src=http://evil.test/c.png>" }</style>
      <img src="/real.png">`;
    expect(scanTags(html).map((tag) => tag.name)).toEqual(["script", "style", "img"]);
  });

  it("survives truncated markup", () => {
    expect(scanTags(`<p>ok</p><script src="/a.js`).map((tag) => tag.name)).toEqual(["p", "script"]);
    expect(scanTags("<")).toEqual([]);
  });
});

describe("readHtml", () => {
  it("finds CSP meta tags, the last referrer meta tag and every script", () => {
    const facts = readHtml(`<head>
      <meta http-equiv="content-security-policy" content="script-src 'self'">
      <meta http-equiv="Content-Security-Policy" content="object-src 'none'">
      <meta http-equiv="refresh" content="5">
      <meta name="referrer" content="origin">
      <meta name="Referrer" content="no-referrer">
      <script>inline()</script>
      <script src="https://cdn.example.net/x.js" integrity="sha384-x" crossorigin="anonymous"></script>
      <script src=""></script>
    </head>`);
    expect(facts.metaCsp).toEqual(["script-src 'self'", "object-src 'none'"]);
    expect(facts.metaReferrer).toBe("no-referrer");
    expect(facts.scripts).toEqual([
      { src: null, integrity: null, crossorigin: null },
      { src: "https://cdn.example.net/x.js", integrity: "sha384-x", crossorigin: "anonymous" },
      { src: null, integrity: null, crossorigin: null },
    ]);
  });
});
