import { describe, expect, it } from "vitest";
import { referrerPolicyTest } from "./referrer-policy.ts";
import { pageContext } from "./test-fixtures.ts";

function referrer(value: string | string[] | null, body = "") {
  const { input, context } = pageContext(value === null ? {} : { "referrer-policy": value }, body);
  return referrerPolicyTest(input, context);
}

describe("referrer-policy test", () => {
  it.each(["no-referrer", "same-origin", "strict-origin", "Strict-Origin-When-Cross-Origin"])(
    "%s is private: +5",
    (value) => {
      expect(referrer(value).test).toMatchObject({
        result: "referrer-policy-private",
        scoreModifier: 5,
        pass: true,
      });
    },
  );

  it.each(["origin", "origin-when-cross-origin", "unsafe-url", "no-referrer-when-downgrade"])(
    "%s is unsafe: -5",
    (value) => {
      const outcome = referrer(value);
      expect(outcome.test).toMatchObject({
        result: "referrer-policy-unsafe",
        scoreModifier: -5,
        pass: false,
      });
      expect(outcome.issues).toMatchObject([{ id: "referrer-policy-unsafe", severity: "medium" }]);
    },
  );

  it("missing: 0, passes, low issue", () => {
    const outcome = referrer(null);
    expect(outcome.test).toMatchObject({
      result: "referrer-policy-not-implemented",
      scoreModifier: 0,
      pass: true,
    });
    expect(outcome.issues).toMatchObject([{ id: "referrer-policy-missing", severity: "low" }]);
  });

  it("unrecognised: -5", () => {
    expect(referrer("never").test).toMatchObject({
      result: "referrer-policy-header-invalid",
      scoreModifier: -5,
    });
  });

  it("the last recognised value wins (fallback lists)", () => {
    expect(referrer("unsafe-url, strict-origin-when-cross-origin").test.result).toBe(
      "referrer-policy-private",
    );
    expect(referrer("no-referrer, unsafe-url, made-up").test.result).toBe("referrer-policy-unsafe");
    expect(referrer(["no-referrer", "origin"]).test.result).toBe("referrer-policy-unsafe");
  });

  it("a <meta name=referrer> comes after the header", () => {
    expect(referrer(null, `<meta name="referrer" content="no-referrer">`).test.result).toBe(
      "referrer-policy-private",
    );
    expect(referrer("no-referrer", `<meta name="referrer" content="unsafe-url">`).test.result).toBe(
      "referrer-policy-unsafe",
    );
  });
});
