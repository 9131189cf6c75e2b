import { describe, expect, it } from "vitest";
import { parseAcceptEncoding } from "./static-files.ts";

describe("parseAcceptEncoding", () => {
  it("reads the encodings a browser offers", () => {
    expect([...parseAcceptEncoding("gzip, deflate, br, zstd")].sort()).toEqual([
      "br",
      "deflate",
      "gzip",
      "zstd",
    ]);
  });

  it("drops encodings refused with q=0", () => {
    expect([...parseAcceptEncoding("br;q=0, gzip;q=0.8")]).toEqual(["gzip"]);
  });

  it("treats * as any encoding we have", () => {
    expect([...parseAcceptEncoding("*")].sort()).toEqual(["br", "gzip"]);
  });

  it("accepts nothing from an empty header", () => {
    expect(parseAcceptEncoding("").size).toBe(0);
  });
});
