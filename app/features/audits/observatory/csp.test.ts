import { describe, expect, it } from "vitest";
import type { ScanInput } from "../audit-types.ts";
import { buildContext } from "./analyse.ts";
import { CspParseError, cspTest, parseCsp } from "./csp.ts";
import { chain, HTML, pageContext, response } from "./test-fixtures.ts";

function csp(policy: string | string[] | null, body = "", headers: Record<string, string | string[]> = {}) {
  const all = policy === null ? headers : { "content-security-policy": policy, ...headers };
  const { input, context } = pageContext(all, body);
  return cspTest(input, context);
}
const ids = (outcome: ReturnType<typeof csp>) => outcome.issues.map((issue) => issue.id);

describe("parseCsp", () => {
  it("lower-cases directives and sources and treats an empty source list as 'none'", () => {
    const { directives } = parseCsp([
      "Default-Src 'SELF' https://CDN.example.com; object-src; upgrade-insecure-requests",
    ]);
    expect(directives.get("default-src")).toEqual(new Set(["'self'", "https://cdn.example.com"]));
    expect(directives.get("object-src")).toEqual(new Set(["'none'"]));
  });

  it("rejects a repeated directive and a policy too short to mean anything", () => {
    expect(() => parseCsp(["script-src 'self'; script-src 'none'"])).toThrow(CspParseError);
    expect(() => parseCsp(["abc"])).toThrow(CspParseError);
  });

  it("tolerates repeated reporting directives but notes them", () => {
    expect(parseCsp(["default-src 'self'; report-uri /a; report-uri /b"]).duplicateReporting).toBe(true);
  });

  it("intersects several policies, since every one of them is enforced", () => {
    const { directives } = parseCsp([
      "default-src 'self'; script-src 'self' 'unsafe-inline'",
      "script-src 'self'",
    ]);
    expect(directives.get("script-src")).toEqual(new Set(["'self'"]));
    // A later directive the first policy left to default-src is narrowed by that default-src.
    const narrowed = parseCsp(["default-src 'self'", "img-src https: 'self'"]).directives;
    expect(narrowed.get("img-src")).toEqual(new Set(["'self'"]));
  });
});

describe("content-security-policy test", () => {
  it("not implemented: -25, high", () => {
    const outcome = csp(null);
    expect(outcome.test).toMatchObject({ result: "csp-not-implemented", scoreModifier: -25, pass: false });
    expect(outcome.issues).toMatchObject([{ id: "csp-missing", severity: "high" }]);
  });

  it("report-only is not enforcement: -25", () => {
    const outcome = csp(null, "", { "content-security-policy-report-only": "default-src 'self'" });
    expect(outcome.test).toMatchObject({
      result: "csp-not-implemented-but-reporting-enabled",
      scoreModifier: -25,
    });
    expect(ids(outcome)).toEqual(["csp-report-only"]);
  });

  it("unparseable header: -25", () => {
    const outcome = csp("default-src 'self'; default-src 'none'");
    expect(outcome.test).toMatchObject({ result: "csp-header-invalid", scoreModifier: -25, pass: false });
    expect(ids(outcome)).toEqual(["csp-invalid"]);
  });

  it("default-src 'none' with nothing unsafe: +10", () => {
    const outcome = csp(
      "default-src 'none'; script-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'",
    );
    expect(outcome.test).toMatchObject({
      result: "csp-implemented-with-no-unsafe-default-src-none",
      scoreModifier: 10,
      pass: true,
    });
    expect(outcome.issues).toEqual([]);
  });

  it("nothing unsafe: +5", () => {
    const outcome = csp("default-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'");
    expect(outcome.test).toMatchObject({
      result: "csp-implemented-with-no-unsafe",
      scoreModifier: 5,
      pass: true,
    });
    expect(outcome.issues).toEqual([]);
  });

  it("script-src 'unsafe-inline': -20", () => {
    const outcome = csp("default-src 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'");
    expect(outcome.test).toMatchObject({
      result: "csp-implemented-with-unsafe-inline",
      scoreModifier: -20,
      pass: false,
    });
    expect(ids(outcome)).toContain("csp-unsafe-inline");
  });

  it("'unsafe-inline' next to a nonce or hash is ignored by browsers, so it is safe", () => {
    const outcome = csp(
      "default-src 'self'; script-src 'self' 'nonce-r4nd0m' 'unsafe-inline'; object-src 'none'",
    );
    expect(outcome.test.result).toBe("csp-implemented-with-no-unsafe");
    const hashed = csp("default-src 'self'; script-src 'sha256-abc=' 'unsafe-inline'; object-src 'none'");
    expect(hashed.test.result).toBe("csp-implemented-with-no-unsafe");
  });

  it("data: in script-src: -20", () => {
    const outcome = csp("default-src 'self'; script-src 'self' data:");
    expect(outcome.test.result).toBe("csp-implemented-with-unsafe-inline");
    expect(ids(outcome)).toContain("csp-script-src-data");
  });

  it.each(["*", "https:", "http:", "https://*"])("script-src %s is too broad: -20", (source) => {
    const outcome = csp(`default-src 'self'; script-src ${source}`);
    expect(outcome.test.result).toBe("csp-implemented-with-unsafe-inline");
    expect(ids(outcome)).toContain("csp-script-src-too-broad");
  });

  it("no script-src and no default-src leaves scripts and plugins unrestricted: -20", () => {
    const outcome = csp("img-src 'self'; frame-ancestors 'none'");
    expect(outcome.test.result).toBe("csp-implemented-with-unsafe-inline");
    expect(ids(outcome)).toEqual(
      expect.arrayContaining(["csp-script-src-missing", "csp-object-src-unrestricted"]),
    );
  });

  it("object-src https: is too broad even with a strict script-src: -20", () => {
    const outcome = csp("script-src 'self'; object-src https:");
    expect(outcome.test.result).toBe("csp-implemented-with-unsafe-inline");
    expect(ids(outcome)).toContain("csp-object-src-unrestricted");
  });

  it("'strict-dynamic' with a nonce ignores the host and scheme fallbacks: +5", () => {
    const outcome = csp(
      "default-src 'self'; object-src 'none'; script-src 'nonce-abc' 'strict-dynamic' https: http: 'unsafe-inline'",
    );
    expect(outcome.test).toMatchObject({ result: "csp-implemented-with-no-unsafe", scoreModifier: 5 });
  });

  it("'strict-dynamic' without a nonce or hash is graded invalid: -25", () => {
    const outcome = csp("object-src 'none'; script-src 'self' 'strict-dynamic'");
    expect(outcome.test).toMatchObject({ result: "csp-header-invalid", scoreModifier: -25, pass: false });
    expect(ids(outcome)).toContain("csp-strict-dynamic-without-nonce");
  });

  it("http: sources for active content on an HTTPS page: -20", () => {
    const outcome = csp("default-src 'self'; object-src 'none'; connect-src http://api.example.com");
    expect(outcome.test).toMatchObject({
      result: "csp-implemented-with-insecure-scheme",
      scoreModifier: -20,
    });
    expect(ids(outcome)).toContain("csp-insecure-scheme");
  });

  it("'unsafe-eval': -10", () => {
    const outcome = csp("default-src 'self'; script-src 'self' 'unsafe-eval'; object-src 'none'");
    expect(outcome.test).toMatchObject({
      result: "csp-implemented-with-unsafe-eval",
      scoreModifier: -10,
      pass: false,
    });
    expect(ids(outcome)).toContain("csp-unsafe-eval");
  });

  it("images over http: on an HTTPS page: -10 but passes", () => {
    const outcome = csp("default-src 'self'; object-src 'none'; img-src 'self' http://img.example.com");
    expect(outcome.test).toMatchObject({
      result: "csp-implemented-with-insecure-scheme-in-passive-content-only",
      scoreModifier: -10,
      pass: true,
    });
  });

  it("http: sources on a plain-HTTP page are not an insecure scheme (the page is already HTTP)", () => {
    const page = response("http://www.example.com/", {
      ...HTML,
      "content-security-policy": "default-src 'self'; img-src http:; object-src 'none'",
    });
    const input: ScanInput = {
      url: page.url,
      http: chain(page),
      https: { error: "connect_failed", details: "refused" },
    };
    expect(cspTest(input, buildContext(input)).test.result).toBe("csp-implemented-with-no-unsafe");
  });

  it("'unsafe-inline' in style-src only: 0, passes", () => {
    const outcome = csp(
      "default-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; form-action 'self'",
    );
    expect(outcome.test).toMatchObject({
      result: "csp-implemented-with-unsafe-inline-in-style-src-only",
      scoreModifier: 0,
      pass: true,
    });
    expect(outcome.issues).toMatchObject([{ id: "csp-unsafe-style", severity: "low" }]);
  });

  it("repeated report-uri: 0, passes", () => {
    const outcome = csp("default-src 'self'; object-src 'none'; report-uri /a; report-uri /b");
    expect(outcome.test).toMatchObject({
      result: "csp-implemented-but-duplicate-directives",
      scoreModifier: 0,
      pass: true,
    });
  });

  it("flags base-uri and form-action left open as low issues without changing the result", () => {
    const outcome = csp("default-src 'self'; object-src 'none'");
    expect(outcome.test.result).toBe("csp-implemented-with-no-unsafe");
    expect(outcome.issues.map((i) => [i.id, i.severity])).toEqual([
      ["csp-base-uri-unrestricted", "low"],
      ["csp-form-action-unrestricted", "low"],
    ]);
  });

  it("several header policies (folded with commas) are enforced together", () => {
    const outcome = csp([
      "default-src 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'",
      "script-src 'self'",
    ]);
    expect(outcome.test.result).toBe("csp-implemented-with-no-unsafe");
  });

  it("reads a policy from <meta http-equiv>", () => {
    const body = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; object-src 'none'"></head></html>`;
    expect(csp(null, body).test.result).toBe("csp-implemented-with-no-unsafe");
  });

  it("a <meta> policy holding only frame-ancestors is no policy at all (browsers ignore it there)", () => {
    const body = `<meta http-equiv="Content-Security-Policy" content="frame-ancestors 'none'">`;
    expect(csp(null, body).test.result).toBe("csp-not-implemented");
  });

  it("ignores <meta> tags when the response is not HTML", () => {
    const body = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`;
    const { input, context } = pageContext({ "content-type": "text/plain" }, body);
    expect(cspTest(input, context).test.result).toBe("csp-not-implemented");
  });
});
