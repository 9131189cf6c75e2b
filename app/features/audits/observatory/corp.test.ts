import { describe, expect, it } from "vitest";
import { corpTest } from "./corp.ts";
import { pageContext } from "./test-fixtures.ts";

function corp(value: string | null) {
  const { input, context } = pageContext(value === null ? {} : { "cross-origin-resource-policy": value });
  return corpTest(input, context);
}

describe("cross-origin-resource-policy test", () => {
  it.each([
    ["same-origin", "corp-implemented-with-same-origin", 10, true],
    ["Same-Site", "corp-implemented-with-same-site", 10, true],
    ["cross-origin", "corp-implemented-with-cross-origin", 0, true],
    ["same-host", "corp-header-invalid", -5, false],
  ])("%s → %s", (value, result, scoreModifier, pass) => {
    expect(corp(value).test).toMatchObject({ result, scoreModifier, pass });
  });

  it("missing: 0, passes, low issue", () => {
    const outcome = corp(null);
    expect(outcome.test).toMatchObject({ result: "corp-not-implemented", scoreModifier: 0, pass: true });
    expect(outcome.issues).toMatchObject([{ id: "corp-missing", severity: "low" }]);
  });
});
