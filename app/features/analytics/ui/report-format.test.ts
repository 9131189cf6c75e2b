import { describe, expect, it } from "vitest";
import { countChange, formatRate, rateChange, stepShares } from "./report-format.ts";

describe("how the analytics page writes its figures", () => {
  it("writes rates as percentages, and no rate as a dash", () => {
    expect(formatRate(1)).toBe("100%");
    expect(formatRate(0)).toBe("0%");
    expect(formatRate(0.0123)).toBe("1.2%");
    expect(formatRate(0.456)).toBe("46%");
    expect(formatRate(null)).toBe("—");
  });

  it("writes a change against the previous period", () => {
    expect(countChange(120, 100)).toEqual({ text: "+20%", direction: "up" });
    expect(countChange(95, 100)).toEqual({ text: "−5.0%", direction: "down" });
    expect(countChange(3, 0)).toEqual({ text: "new", direction: "new" });
    expect(countChange(0, 0)).toEqual({ text: "no change", direction: "same" });
    expect(rateChange(0.05, 0.038)).toEqual({ text: "+1.2 pts", direction: "up" });
    expect(rateChange(0.01, 0.01)).toEqual({ text: "no change", direction: "same" });
  });

  it("scales each funnel step by the step before, never above the whole", () => {
    expect(stepShares([200, 50, 5, 1])).toEqual([1, 0.25, 0.1, 0.2]);
    // Leads sent through the API outnumber the visitors who saw a form (issue 22).
    expect(stepShares([4, 2, 6, 3])).toEqual([1, 0.5, 1, 0.5]);
    expect(stepShares([0, 0, 3, 0])).toEqual([0, null, null, 0]);
  });
});
