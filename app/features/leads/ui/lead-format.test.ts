import { describe, expect, test } from "vitest";
import { LEAD_STATUS_OPTIONS, statusBadgeClass, statusLabel } from "./lead-format.ts";

describe("statuses", () => {
  test("the five of SPEC section 4, capitalised, with their badge colours", () => {
    expect(LEAD_STATUS_OPTIONS).toEqual(["new", "contacted", "qualified", "unqualified", "customer"]);
    expect(LEAD_STATUS_OPTIONS.map(statusLabel)).toEqual([
      "New",
      "Contacted",
      "Qualified",
      "Unqualified",
      "Customer",
    ]);
    expect(statusBadgeClass("new")).toContain("blue");
    expect(statusBadgeClass("contacted")).toContain("yellow");
    expect(statusBadgeClass("qualified")).toContain("green");
    expect(statusBadgeClass("unqualified")).toContain("red");
    expect(statusBadgeClass("customer")).toContain("slate");
    expect(statusBadgeClass("archived")).toContain("slate");
  });
});
