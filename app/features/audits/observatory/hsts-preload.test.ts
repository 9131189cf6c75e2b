import { describe, expect, it } from "vitest";
import { findHstsPreload, preloadCandidates, preloadHostsOf } from "./hsts-preload.ts";
import { chain, failure, preloadSnapshot, redirect, response } from "./test-fixtures.ts";

// The lookup the reference does (src/analyzer/hsts.js): the host itself, then each parent up to the
// TLD, where only entries with include_subdomains cover the names below them.
const list = preloadSnapshot({
  "exact-only.example": false,
  "whole.example": true,
  dev: true,
});

describe("HSTS preload lookup", () => {
  it("lists a host and its parents, most specific first", () => {
    expect(preloadCandidates("A.b.Example.dev.")).toEqual([
      "a.b.example.dev",
      "b.example.dev",
      "example.dev",
      "dev",
    ]);
    expect(preloadCandidates("[::1]")).toEqual([]);
    expect(preloadCandidates("93.184.215.14")).toEqual([]);
  });

  it("finds a host listed without include_subdomains, but not its subdomains", () => {
    expect(findHstsPreload(list, "exact-only.example")).toEqual({
      name: "exact-only.example",
      includeSubdomains: false,
    });
    expect(findHstsPreload(list, "www.exact-only.example")).toBeNull();
  });

  it("covers every subdomain of an entry with include_subdomains, at any depth", () => {
    expect(findHstsPreload(list, "whole.example")).toEqual({
      name: "whole.example",
      includeSubdomains: true,
    });
    expect(findHstsPreload(list, "a.b.whole.example")).toEqual({
      name: "whole.example",
      includeSubdomains: true,
    });
    expect(findHstsPreload(list, "notwhole.example")).toBeNull();
  });

  it("covers a whole preloaded TLD such as .dev", () => {
    expect(findHstsPreload(list, "www.clausebridge.dev")).toEqual({ name: "dev", includeSubdomains: true });
  });

  it("ignores case and a trailing dot, and never matches IP addresses or unlisted hosts", () => {
    expect(findHstsPreload(list, "WHOLE.example.")?.name).toBe("whole.example");
    // Even against a list holding names that look like an address's last labels.
    const numeric = preloadSnapshot({ "14": true, "215.14": true, "1": true });
    expect(findHstsPreload(numeric, "93.184.215.14")).toBeNull();
    expect(findHstsPreload(numeric, "[::1]")).toBeNull();
    expect(findHstsPreload(list, "www.example.com")).toBeNull();
  });

  it("finds nothing without a list", () => {
    expect(findHstsPreload(null, "whole.example")).toBeNull();
  });

  it("asks about the audited host and every plain-HTTP redirect hop", () => {
    const final = response("https://www.example.org/");
    expect(
      preloadHostsOf({
        url: "https://example.org/",
        http: chain(
          redirect("http://example.org/", "https://example.org/"),
          redirect("https://example.org/", final.url),
          final,
        ),
      }),
    ).toEqual(["example.org", "www.example.org"]);
    expect(preloadHostsOf({ url: "https://Example.org/", http: failure() })).toEqual(["example.org"]);
  });
});
