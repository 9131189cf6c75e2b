import { describe, expect, it } from "vitest";
import { plural } from "./plural.ts";

describe("plural", () => {
  it("says one thing in the singular, and none or many in the plural", () => {
    expect(plural(1, "day")).toBe("1 day");
    expect(plural(0, "day")).toBe("0 days");
    expect(plural(14, "day")).toBe("14 days");
    expect(plural(2, "entry", "entries")).toBe("2 entries");
  });
});
