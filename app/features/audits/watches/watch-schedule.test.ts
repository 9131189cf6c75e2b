import { describe, expect, it } from "vitest";
import { nextRunAfter, PERIOD_MS, phaseOffsetMs } from "./watch-schedule.ts";

describe("a watch's schedule", () => {
  it("spreads 50 daily watches over the day instead of running them together", () => {
    const hours = new Set(
      Array.from({ length: 50 }, (_, index) => Math.floor(phaseOffsetMs(index + 1, "daily") / 3_600_000)),
    );
    // 50 ids land in many different hours of the day (not all at midnight).
    expect(hours.size).toBeGreaterThan(15);
    for (let id = 1; id <= 50; id++) expect(phaseOffsetMs(id, "daily")).toBeLessThan(PERIOD_MS.daily);
  });

  it("runs once a period at the same phase, strictly after the given time", () => {
    const start = new Date("2026-11-27T10:00:00Z");
    const first = nextRunAfter(7, "hourly", start);
    expect(first.getTime()).toBeGreaterThan(start.getTime());
    expect(first.getTime() - start.getTime()).toBeLessThanOrEqual(PERIOD_MS.hourly);
    const second = nextRunAfter(7, "hourly", first);
    expect(second.getTime() - first.getTime()).toBe(PERIOD_MS.hourly);
    // A restart (any later look) finds the same slots.
    expect(nextRunAfter(7, "hourly", new Date(first.getTime() - 1))).toEqual(first);
    const weekly = nextRunAfter(7, "weekly", start);
    expect(weekly.getTime() - start.getTime()).toBeLessThanOrEqual(PERIOD_MS.weekly);
  });
});
