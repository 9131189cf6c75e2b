import { describe, expect, it } from "vitest";
import { countChange, formatRate, formatWait, rateChange, stepShares } from "./report-format.ts";

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

  it("measures a step against the one it names, as qualified leads against the leads", () => {
    // Visitors, form pages, leads, booked a meeting, qualified (of the leads, index 2).
    expect(stepShares([200, 50, 10, 4, 5], [undefined, undefined, undefined, undefined, 2])).toEqual([
      1, 0.25, 0.2, 0.4, 0.5,
    ]);
  });

  it("writes a wait in minutes, hours and minutes, or days", () => {
    expect(formatWait(0)).toBe("under 1 min");
    expect(formatWait(29)).toBe("under 1 min");
    expect(formatWait(240)).toBe("4 min");
    expect(formatWait(3_580)).toBe("1 h");
    expect(formatWait(7_800)).toBe("2 h 10 min");
    expect(formatWait(8_400)).toBe("2 h 20 min");
    expect(formatWait(10_800)).toBe("3 h");
    expect(formatWait(86_370)).toBe("1 day");
    expect(formatWait(129_600)).toBe("1.5 days");
    expect(formatWait(12 * 86_400 + 600)).toBe("12 days");
  });
});
