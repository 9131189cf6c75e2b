import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "../server/page-javascript.ts";
import { urlPathFor } from "./postbuild.ts";

const sha = (text: string) => `sha256-${createHash("sha256").update(text).digest("base64")}`;

describe("inlineScriptHashes", () => {
  it("hashes inline executable scripts exactly as written", () => {
    const html = `<script>window.a = 1;</script><script type="module" async="">import "/x.js";</script>`;
    expect(inlineScriptHashes(html)).toEqual([sha("window.a = 1;"), sha('import "/x.js";')]);
  });

  it("skips external scripts, empty scripts and JSON-LD data blocks", () => {
    const html = `<script src="/a.js"></script><script></script><script type="application/ld+json">{"a":1}</script>`;
    expect(inlineScriptHashes(html)).toEqual([]);
  });
});

describe("urlPathFor", () => {
  it("maps prerendered folders to their clean URL", () => {
    expect(urlPathFor("index.html")).toBe("/");
    expect(urlPathFor("problem/index.html")).toBe("/problem");
    expect(urlPathFor("blog/some-slug/index.html")).toBe("/blog/some-slug");
  });

  it("keeps other files at their own path", () => {
    expect(urlPathFor("assets/root-abc.js")).toBe("/assets/root-abc.js");
    expect(urlPathFor("investor-deck-pdf")).toBe("/investor-deck-pdf");
  });
});
