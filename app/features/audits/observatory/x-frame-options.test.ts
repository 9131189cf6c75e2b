import { describe, expect, it } from "vitest";
import { pageContext } from "./test-fixtures.ts";
import { xFrameOptionsTest } from "./x-frame-options.ts";

function xfo(headers: Record<string, string>, body = "") {
  const { input, context } = pageContext(headers, body);
  return xFrameOptionsTest(input, context);
}

describe("x-frame-options test", () => {
  it.each([
    // Algorithm version 5: DENY/SAMEORIGIN earn +5, as frame-ancestors does (version 4 gave 0).
    ["DENY", "x-frame-options-sameorigin-or-deny", 5, true],
    ["sameorigin", "x-frame-options-sameorigin-or-deny", 5, true],
    ["ALLOW-FROM https://partner.example.com", "x-frame-options-allow-from-origin", 0, true],
    ["DENY, SAMEORIGIN", "x-frame-options-header-invalid", -20, false],
  ])("X-Frame-Options: %s → %s", (value, result, scoreModifier, pass) => {
    expect(xfo({ "x-frame-options": value }).test).toMatchObject({ result, scoreModifier, pass });
  });

  it("DENY needs no issue: neither framing control is preferred since algorithm version 5", () => {
    expect(xfo({ "x-frame-options": "DENY" }).issues).toEqual([]);
  });

  it("missing: -20 and a medium clickjacking issue", () => {
    const outcome = xfo({});
    expect(outcome.test).toMatchObject({
      result: "x-frame-options-not-implemented",
      scoreModifier: -20,
      pass: false,
    });
    expect(outcome.issues).toMatchObject([{ id: "clickjacking-protection-missing", severity: "medium" }]);
  });

  it("CSP frame-ancestors in the header replaces it: +5", () => {
    const outcome = xfo({ "content-security-policy": "default-src 'self'; frame-ancestors 'none'" });
    expect(outcome.test).toMatchObject({
      result: "x-frame-options-implemented-via-csp",
      scoreModifier: 5,
      pass: true,
    });
    expect(outcome.issues).toEqual([]);
  });

  // The reference scanner (mdn/mdn-http-observatory x-frame-options.js) reads frame-ancestors from
  // the combined header + <meta> policy and awards +5 for a <meta> one. Browsers ignore
  // frame-ancestors in <meta> (CSP3 §6.4.2), so the page is still frameable: no credit here.
  it("frame-ancestors in a <meta> policy does not count (the reference wrongly gives +5)", () => {
    const body = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-ancestors 'none'">`;
    const outcome = xfo({}, body);
    expect(outcome.test).toMatchObject({
      result: "x-frame-options-not-implemented",
      scoreModifier: -20,
      pass: false,
    });
    expect(outcome.issues[0]?.description).toContain("ignored by browsers");
    // With a header XFO as well, the header's verdict stands, without the frame-ancestors bonus.
    expect(xfo({ "x-frame-options": "DENY" }, body).test.result).toBe("x-frame-options-sameorigin-or-deny");
  });
});
