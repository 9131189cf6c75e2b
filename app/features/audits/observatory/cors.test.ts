import { describe, expect, it } from "vitest";
import type { FetchedResponse } from "../audit-types.ts";
import { buildContext } from "./analyse.ts";
import { corsTest } from "./cors.ts";
import { failure, pageContext, response } from "./test-fixtures.ts";

const PROBE = "https://k3x9q.example";
const probe = (headers: Record<string, string>): FetchedResponse =>
  response("https://www.example.com/", headers);

function cors(preflight?: Record<string, string>, get?: Record<string, string>, corsOrigin?: string) {
  const { input } = pageContext({}, "", {
    corsPreflight: preflight ? probe(preflight) : undefined,
    corsGet: get ? probe(get) : undefined,
  });
  return corsTest(input, buildContext(input, { corsOrigin }));
}

describe("cross-origin-resource-sharing test", () => {
  it("no CORS headers (or no probes): 0, passes", () => {
    expect(cors({}, {}).test).toMatchObject({
      result: "cross-origin-resource-sharing-not-implemented",
      scoreModifier: 0,
      pass: true,
    });
    expect(cors().test.result).toBe("cross-origin-resource-sharing-not-implemented");
  });

  // Issue 9 point 12: timed-out probes are not "Content is not visible via CORS".
  it("probes that timed out: could not be checked, said as such", () => {
    const timedOut = failure(
      "Timed out after 10 s",
      "www.example.com did not answer completely within 10 s.",
    );
    const { input, context } = pageContext({}, "", { corsGet: timedOut, corsPreflight: timedOut });
    const outcome = corsTest(input, context);
    expect(outcome.test).toMatchObject({
      result: "cross-origin-resource-sharing-not-implemented",
      scoreModifier: 0,
      description: "Could not be checked: the CORS probes did not complete.",
    });
    expect(outcome.issues).toMatchObject([
      { id: "cors-unchecked", title: "CORS could not be checked", severity: "info" },
    ]);
    expect(outcome.issues[0]?.description).toContain("the GET probe (Timed out after 10 s:");
    expect(JSON.stringify(outcome)).not.toContain("not visible");

    // One probe answered: its verdict stands, and the issue says only part was checked.
    const partly = pageContext({}, "", { corsGet: timedOut, corsPreflight: probe({}) });
    const partial = corsTest(partly.input, partly.context);
    expect(partial.test.description).toBe("Content is not visible via cross-origin resource sharing.");
    expect(partial.issues).toMatchObject([{ id: "cors-unchecked", title: "CORS only partly checked" }]);
  });

  it("Access-Control-Allow-Origin: * is public access, even with credentials (browsers refuse that pair): 0", () => {
    const outcome = cors({ "access-control-allow-origin": "*", "access-control-allow-credentials": "true" });
    expect(outcome.test).toMatchObject({
      result: "cross-origin-resource-sharing-implemented-with-public-access",
      scoreModifier: 0,
      pass: true,
    });
    expect(outcome.issues).toEqual([]);
  });

  it("a fixed allowed origin is restricted access: 0", () => {
    const outcome = cors({
      "access-control-allow-origin": "https://app.example.com",
      "access-control-allow-credentials": "true",
    });
    expect(outcome.test).toMatchObject({
      result: "cross-origin-resource-sharing-implemented-with-restricted-access",
      pass: true,
    });
    expect(outcome.issues).toEqual([]);
  });

  it("a reflected origin with credentials on the preflight is universal access: -50, critical", () => {
    const outcome = cors({
      "access-control-allow-origin": PROBE,
      "access-control-allow-credentials": "true",
    });
    expect(outcome.test).toMatchObject({
      result: "cross-origin-resource-sharing-implemented-with-universal-access",
      scoreModifier: -50,
      pass: false,
    });
    expect(outcome.issues).toMatchObject([
      { id: "cors-origin-reflected-with-credentials", severity: "critical" },
    ]);
  });

  // The reference scanner only sends the OPTIONS preflight (retriever.js) and grades that response.
  // A server that answers OPTIONS without CORS headers but reflects the Origin with credentials on
  // GET gets "not implemented" there, although any site can read the page as the signed-in user.
  // That is the worst CORS result, and it is graded as such here.
  it("a reflected origin with credentials on the GET alone is still universal access (the reference misses it)", () => {
    const outcome = cors(
      {},
      { "access-control-allow-origin": PROBE, "access-control-allow-credentials": "TRUE" },
    );
    expect(outcome.test).toMatchObject({
      result: "cross-origin-resource-sharing-implemented-with-universal-access",
      scoreModifier: -50,
    });
    expect(outcome.issues[0]?.severity).toBe("critical");
  });

  it("a reflected origin without credentials is restricted access with a low issue", () => {
    const outcome = cors({ "access-control-allow-origin": PROBE });
    expect(outcome.test).toMatchObject({
      result: "cross-origin-resource-sharing-implemented-with-restricted-access",
      scoreModifier: 0,
    });
    expect(outcome.issues).toMatchObject([{ id: "cors-origin-reflected", severity: "low" }]);
  });

  it("uses the caller's probe origin when given", () => {
    const origin = "https://probe.attacker.test";
    const outcome = cors(
      { "access-control-allow-origin": origin, "access-control-allow-credentials": "true" },
      undefined,
      origin,
    );
    expect(outcome.test.result).toBe("cross-origin-resource-sharing-implemented-with-universal-access");
  });
});
