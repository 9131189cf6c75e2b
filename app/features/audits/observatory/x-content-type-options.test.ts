import { describe, expect, it } from "vitest";
import { pageContext } from "./test-fixtures.ts";
import { xContentTypeOptionsTest } from "./x-content-type-options.ts";

function xcto(value: string | null) {
  const { input, context } = pageContext(value === null ? {} : { "x-content-type-options": value });
  return xContentTypeOptionsTest(input, context);
}

describe("x-content-type-options test", () => {
  it("nosniff (any case): 0, passes", () => {
    expect(xcto(" NoSniff ").test).toMatchObject({
      result: "x-content-type-options-nosniff",
      scoreModifier: 0,
      pass: true,
    });
    expect(xcto("nosniff").issues).toEqual([]);
  });

  it("missing: -5, medium", () => {
    const outcome = xcto(null);
    expect(outcome.test).toMatchObject({
      result: "x-content-type-options-not-implemented",
      scoreModifier: -5,
      pass: false,
    });
    expect(outcome.issues).toMatchObject([{ id: "x-content-type-options-missing", severity: "medium" }]);
  });

  it("anything else: -5", () => {
    expect(xcto("nosniff; mode=block").test).toMatchObject({
      result: "x-content-type-options-header-invalid",
      scoreModifier: -5,
    });
  });
});
