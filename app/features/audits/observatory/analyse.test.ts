import { describe, expect, it } from "vitest";
import type { ScanInput } from "../audit-types.ts";
import { analyse, ObservatoryScanError } from "./analyse.ts";
import {
  chain,
  failure,
  HTML,
  preloadSnapshot,
  readFixture,
  redirect,
  response,
  site,
} from "./test-fixtures.ts";

const NOW = new Date("2025-06-01T00:00:00Z");
const byTest = (result: ReturnType<typeof analyse>) =>
  Object.fromEntries(result.tests.map((test) => [test.name, [test.result, test.scoreModifier]]));

// What this project's server sends for a prerendered page (server/security-headers.ts, with the
// build's script hashes) and the prerendered home page itself (build/client/index.html).
const OWN_HEADERS: [string, string][] = [
  ["content-type", "text/html; charset=utf-8"],
  [
    "content-security-policy",
    "default-src 'self'; script-src 'self' 'sha256-Q2pFIsI2ZxhOzyVWQZ4wnWLnDlMfWSnH3Z3LG9KjQlU=' 'sha256-p0xXM1dBR1X3xA1fY3mKj2l0Kq0Xgk6RzYl+oZt1rHs='; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; upgrade-insecure-requests",
  ],
  ["x-content-type-options", "nosniff"],
  ["referrer-policy", "strict-origin-when-cross-origin"],
  ["permissions-policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"],
  ["cross-origin-opener-policy", "same-origin"],
  ["cross-origin-resource-policy", "same-origin"],
  ["x-frame-options", "DENY"],
  ["strict-transport-security", "max-age=63072000; includeSubDomains"],
  ["cache-control", "public, max-age=300"],
];

describe("analyse", () => {
  it("grades this project's own site A+ (120 uncapped, 100 capped)", () => {
    const page = response(
      "https://www.clausebridge.co.uk/",
      OWN_HEADERS,
      readFixture("clausebridge-home.html.txt"),
    );
    const securityTxt = response(
      "https://www.clausebridge.co.uk/.well-known/security.txt",
      { "content-type": "text/plain; charset=utf-8" },
      "Contact: mailto:security@clausebridge.co.uk\nExpires: 2026-05-01T00:00:00Z\n",
    );
    const result = analyse(
      site(page, { corsGet: page, corsPreflight: response(page.url, {}, "", { status: 204 }), securityTxt }),
      // A list that does not hold the site: the audit then says nothing about preloading.
      { now: NOW, hstsPreload: preloadSnapshot({}) },
    );
    expect(byTest(result)).toEqual({
      "content-security-policy": ["csp-implemented-with-unsafe-inline-in-style-src-only", 0],
      cookies: ["cookies-not-found", 0],
      "cross-origin-resource-sharing": ["cross-origin-resource-sharing-not-implemented", 0],
      redirection: ["redirection-to-https", 0],
      "referrer-policy": ["referrer-policy-private", 5],
      "strict-transport-security": ["hsts-implemented-max-age-at-least-six-months", 0],
      "subresource-integrity": ["sri-not-implemented-but-all-scripts-loaded-from-secure-origin", 0],
      "x-content-type-options": ["x-content-type-options-nosniff", 0],
      "x-frame-options": ["x-frame-options-implemented-via-csp", 5],
      "cross-origin-resource-policy": ["corp-implemented-with-same-origin", 10],
    });
    expect(result.tests.every((test) => test.pass)).toBe(true);
    expect(result).toMatchObject({ url: page.url, score: 100, uncappedScore: 120, grade: "A+" });
    // Only the deliberate style-src 'unsafe-inline' (Radix positions popovers with style attributes) and good news.
    expect(result.issues.map((issue) => `${issue.id}:${issue.severity}`)).toEqual([
      "csp-unsafe-style:low",
      "tls-certificate-valid:info",
      "coop-implemented:info",
      "security-txt-present:info",
    ]);
  });

  it("adds the reference's +5 for a preloaded site, and notes when no preload list is installed", () => {
    const page = response(
      "https://www.clausebridge.co.uk/",
      OWN_HEADERS,
      readFixture("clausebridge-home.html.txt"),
    );
    const input = site(page, { corsGet: page, corsPreflight: response(page.url, {}, "", { status: 204 }) });
    const preloaded = analyse(input, {
      now: NOW,
      hstsPreload: preloadSnapshot({ "clausebridge.co.uk": true }),
    });
    expect(byTest(preloaded)).toMatchObject({
      redirection: ["redirection-all-redirects-preloaded", 0],
      "strict-transport-security": ["hsts-preloaded", 5],
    });
    expect(preloaded).toMatchObject({ score: 100, uncappedScore: 125, grade: "A+" });
    expect(preloaded.issues.map((issue) => issue.id)).not.toContain("hsts-preload-unchecked");

    const unchecked = analyse(input, { now: NOW });
    expect(unchecked).toMatchObject({ score: 100, uncappedScore: 120 });
    expect(unchecked.issues.filter((issue) => issue.id === "hsts-preload-unchecked")).toMatchObject([
      { severity: "info", title: "HSTS preload status not checked" },
    ]);
  });

  it("grades a site that sends no security headers and does not redirect F (10)", () => {
    const page = response("https://www.example.com/", HTML, "<html><body>Hello</body></html>");
    const input: ScanInput = {
      url: page.url,
      http: chain(response("http://www.example.com/", HTML, "<html></html>")),
      https: chain(page),
    };
    const result = analyse(input, { now: NOW });
    // CSP -25, redirection -20, HSTS -20, X-Content-Type-Options -5, X-Frame-Options -20.
    expect(result).toMatchObject({ score: 10, uncappedScore: 10, grade: "F" });
    expect(result.tests.filter((test) => !test.pass).map((test) => test.name)).toEqual([
      "content-security-policy",
      "redirection",
      "strict-transport-security",
      "x-content-type-options",
      "x-frame-options",
    ]);
    expect(result.issues[0]).toMatchObject({ id: "redirect-to-https-missing", severity: "critical" });
    const high = result.issues.filter((issue) => issue.severity === "high").map((issue) => issue.id);
    expect(high).toEqual(["csp-missing", "hsts-missing"]);
    for (const issue of result.issues.filter((i) => i.severity !== "info"))
      expect(issue.remediation).toBeTruthy();
  });

  it("the same site redirecting HTTP to HTTPS scores D (30)", () => {
    const page = response("https://www.example.com/", HTML, "<html><body>Hello</body></html>");
    expect(analyse(site(page), { now: NOW })).toMatchObject({ score: 30, uncappedScore: 30, grade: "D" });
  });

  it("scores with Observatory algorithm version 5: X-Frame-Options DENY earns +5 like frame-ancestors", () => {
    // The own headers without frame-ancestors: the header X-Frame-Options: DENY now carries the +5.
    const headers = OWN_HEADERS.map(([name, value]): [string, string] => [
      name,
      name === "content-security-policy" ? value.replace("frame-ancestors 'none'; ", "") : value,
    ]);
    const page = response("https://www.example.com/", headers, "<p>hi</p>");
    const result = analyse(site(page), { now: NOW, hstsPreload: preloadSnapshot({}) });
    expect(byTest(result)["x-frame-options"]).toEqual(["x-frame-options-sameorigin-or-deny", 5]);
    // Referrer-Policy +5, X-Frame-Options +5, CORP +10 (algorithm 4 gave 115).
    expect(result).toMatchObject({ score: 100, uncappedScore: 120, grade: "A+", algorithmVersion: 5 });
  });

  it("drops extra credit once the penalties pass 10 points", () => {
    // Perfect headers except no HSTS (-20): the +20 of bonuses would make 100, but only 80 counts.
    const headers = OWN_HEADERS.filter(([name]) => name !== "strict-transport-security");
    const page = response("https://www.example.com/", headers, "<p>hi</p>");
    expect(analyse(site(page), { now: NOW })).toMatchObject({ score: 80, uncappedScore: 80, grade: "B+" });
  });

  it("grades the HTTP site when HTTPS fails, as the reference does", () => {
    const page = response(
      "http://www.example.com/",
      { ...HTML, "x-content-type-options": "nosniff", "x-frame-options": "DENY" },
      "<p>hi</p>",
    );
    const result = analyse(
      { url: "https://www.example.com/", http: chain(page), https: failure("tls_failed", "ECONNRESET") },
      { now: NOW },
    );
    expect(byTest(result)).toMatchObject({
      redirection: ["redirection-missing", -20],
      "strict-transport-security": ["hsts-not-implemented-no-https", -20],
    });
    // CSP -25, redirection -20, HSTS -20.
    expect(result).toMatchObject({ score: 35, grade: "D" });
    expect(result.issues.filter((i) => i.severity === "critical").map((i) => i.id)).toEqual([
      "redirect-to-https-missing",
      "hsts-no-https",
    ]);
  });

  it("throws a clear error when neither HTTPS nor HTTP answered", () => {
    const input: ScanInput = {
      url: "https://down.example/",
      http: failure("dns_failed", "ENOTFOUND"),
      https: failure("dns_failed", "ENOTFOUND"),
    };
    expect(() => analyse(input)).toThrow(ObservatoryScanError);
    expect(() => analyse(input)).toThrow(/could not be fetched over HTTPS or HTTP \(dns_failed: ENOTFOUND/);
  });

  it("refuses to grade an error page, like the reference", () => {
    const page = response("https://www.example.com/", HTML, "", { status: 503 });
    try {
      analyse({
        url: page.url,
        http: chain(redirect("http://www.example.com/", page.url), page),
        https: chain(page),
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ObservatoryScanError);
      expect((error as ObservatoryScanError).code).toBe("not-2xx");
    }
  });
});
