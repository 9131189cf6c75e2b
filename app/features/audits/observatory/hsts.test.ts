import { describe, expect, it } from "vitest";
import type { ScanInput } from "../audit-types.ts";
import { buildContext } from "./analyse.ts";
import { hstsTest } from "./hsts.ts";
import { chain, HTML, pageContext, preloadSnapshot, response, TRUSTED_TLS } from "./test-fixtures.ts";

function hsts(value: string | string[] | null) {
  const { input, context } = pageContext(value === null ? {} : { "strict-transport-security": value });
  return hstsTest(input, context);
}

describe("strict-transport-security test", () => {
  it.each([
    ["max-age=63072000; includeSubDomains; preload", "hsts-implemented-max-age-at-least-six-months", 0, true],
    ["max-age=15552000", "hsts-implemented-max-age-at-least-six-months", 0, true],
    ['max-age="31536000"', "hsts-implemented-max-age-at-least-six-months", 0, true],
    ["MAX-AGE=15768000", "hsts-implemented-max-age-at-least-six-months", 0, true],
    ["max-age=15551999", "hsts-implemented-max-age-less-than-six-months", -10, false],
    ["max-age=0", "hsts-implemented-max-age-less-than-six-months", -10, false],
    ["includeSubDomains", "hsts-header-invalid", -20, false],
    ["max-age=abc", "hsts-header-invalid", -20, false],
    ["max-age=31536000, max-age=31536000", "hsts-header-invalid", -20, false],
  ])("%s → %s (%i)", (value, result, scoreModifier, pass) => {
    expect(hsts(value).test).toMatchObject({ result, scoreModifier, pass });
  });

  it("missing: -20, high", () => {
    const outcome = hsts(null);
    expect(outcome.test).toMatchObject({ result: "hsts-not-implemented", scoreModifier: -20, pass: false });
    expect(outcome.issues).toMatchObject([{ id: "hsts-missing", severity: "high" }]);
  });

  it("short max-age is a medium issue", () => {
    expect(hsts("max-age=86400").issues).toMatchObject([
      { id: "hsts-max-age-too-short", severity: "medium" },
    ]);
  });

  it("no HTTPS at all: -20 and a critical issue", () => {
    const page = response("http://www.example.com/", HTML);
    const input: ScanInput = {
      url: page.url,
      http: chain(page),
      https: { error: "connect_failed", details: "" },
    };
    const outcome = hstsTest(input, buildContext(input));
    expect(outcome.test).toMatchObject({ result: "hsts-not-implemented-no-https", scoreModifier: -20 });
    expect(outcome.issues).toMatchObject([{ id: "hsts-no-https", severity: "critical" }]);
  });

  it("an untrusted certificate makes the header useless: -20", () => {
    const page = response(
      "https://www.example.com/",
      { ...HTML, "strict-transport-security": "max-age=63072000" },
      "",
      {
        tls: { ...TRUSTED_TLS, authorized: false, authorizationError: "CERT_HAS_EXPIRED" },
      },
    );
    const input: ScanInput = { url: page.url, http: chain(page), https: chain(page) };
    expect(hstsTest(input, buildContext(input)).test).toMatchObject({
      result: "hsts-invalid-cert",
      scoreModifier: -20,
    });
  });

  describe("with Chromium's preload list", () => {
    const secure = (url: string, headers: Record<string, string> = {}, tls = TRUSTED_TLS) => {
      const page = response(url, { ...HTML, ...headers }, "", { tls });
      const input: ScanInput = { url, http: chain(page), https: chain(page) };
      return { input, page };
    };

    it("a preloaded host passes with +5 even without the header, as in the reference", () => {
      const { input } = secure("https://www.example.dev/");
      const outcome = hstsTest(input, buildContext(input, { hstsPreload: preloadSnapshot({ dev: true }) }));
      expect(outcome.test).toMatchObject({ result: "hsts-preloaded", scoreModifier: 5, pass: true });
      expect(outcome.test.description).toContain("dev on Chromium's list, retrieved 2026-11-01");
      expect(outcome.issues).toEqual([]);
    });

    it("preloading wins over an untrusted certificate (browsers hard-fail instead of falling back to HTTP)", () => {
      const { input } = secure(
        "https://preloaded.example/",
        {},
        {
          ...TRUSTED_TLS,
          authorized: false,
          authorizationError: "CERT_HAS_EXPIRED",
        },
      );
      const outcome = hstsTest(
        input,
        buildContext(input, { hstsPreload: preloadSnapshot({ "preloaded.example": false }) }),
      );
      expect(outcome.test.result).toBe("hsts-preloaded");
    });

    it("a host on the list without HTTPS is not preloaded (nothing to grade)", () => {
      const page = response("http://preloaded.example/", HTML);
      const input: ScanInput = {
        url: page.url,
        http: chain(page),
        https: { error: "connect_failed", details: "" },
      };
      const outcome = hstsTest(
        input,
        buildContext(input, { hstsPreload: preloadSnapshot({ "preloaded.example": true }) }),
      );
      expect(outcome.test.result).toBe("hsts-not-implemented-no-https");
    });

    it("a subdomain of an entry without include_subdomains is graded on its header", () => {
      const { input } = secure("https://www.preloaded.example/", {
        "strict-transport-security": "max-age=300",
      });
      const outcome = hstsTest(
        input,
        buildContext(input, { hstsPreload: preloadSnapshot({ "preloaded.example": false }) }),
      );
      expect(outcome.test).toMatchObject({
        result: "hsts-implemented-max-age-less-than-six-months",
        scoreModifier: -10,
      });
    });

    it("a site asking for preloading that is not listed gets an info issue pointing to hstspreload.org", () => {
      const { input } = secure("https://www.example.com/", {
        "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
      });
      const outcome = hstsTest(input, buildContext(input, { hstsPreload: preloadSnapshot({}) }));
      expect(outcome.test.result).toBe("hsts-implemented-max-age-at-least-six-months");
      expect(outcome.issues).toMatchObject([{ id: "hsts-not-preloaded", severity: "info" }]);
      expect(outcome.issues[0]?.remediation).toContain("https://hstspreload.org/");
    });

    it("no info issue when the header does not meet the preload requirements anyway", () => {
      const { input } = secure("https://www.example.com/", {
        "strict-transport-security": "max-age=15552000; preload",
      });
      expect(hstsTest(input, buildContext(input, { hstsPreload: preloadSnapshot({}) })).issues).toEqual([]);
    });
  });
});
