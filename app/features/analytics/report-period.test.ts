import { describe, expect, it } from "vitest";
import { parsePeriodQuery, presetPeriod, previousPeriod } from "./report-period.ts";

// The report's period (issue 12): presets in UTC days, and every way a URL can get from/to wrong.

const NOW = new Date("2026-11-25T23:30:00.000Z");
const parse = (query: string) => parsePeriodQuery(new URLSearchParams(query), NOW);

describe("the analytics period", () => {
  it("turns each preset into UTC days ending today", () => {
    expect(presetPeriod("today", "2026-11-25")).toEqual({
      from: "2026-11-25",
      to: "2026-11-25",
      preset: "today",
    });
    expect(presetPeriod("7d", "2026-11-25")).toMatchObject({ from: "2026-11-19", to: "2026-11-25" });
    expect(presetPeriod("30d", "2026-11-25")).toMatchObject({ from: "2026-10-27", to: "2026-11-25" });
    expect(presetPeriod("12m", "2026-11-25")).toMatchObject({ from: "2025-11-26", to: "2026-11-25" });
    // A year back from 29 February is 28 February: the period starts on 1 March.
    expect(presetPeriod("12m", "2028-02-29")).toMatchObject({ from: "2027-03-01", to: "2028-02-29" });
  });

  it("compares with the period of the same length just before", () => {
    expect(previousPeriod({ from: "2026-11-25", to: "2026-11-25" })).toEqual({
      from: "2026-11-24",
      to: "2026-11-24",
    });
    expect(previousPeriod({ from: "2026-11-01", to: "2026-11-30" })).toEqual({
      from: "2026-10-02",
      to: "2026-10-31",
    });
  });

  it("reads a preset, a range (named after the preset it matches), or nothing as the last 30 days", () => {
    expect(parse("")).toEqual({ ok: true, period: { from: "2026-10-27", to: "2026-11-25", preset: "30d" } });
    expect(parse("period=12m")).toEqual({
      ok: true,
      period: { from: "2025-11-26", to: "2026-11-25", preset: "12m" },
    });
    expect(parse("from=2026-11-19&to=2026-11-25")).toEqual({
      ok: true,
      period: { from: "2026-11-19", to: "2026-11-25", preset: "7d" },
    });
    expect(parse("period=custom&from=2026-01-01&to=2026-03-31")).toEqual({
      ok: true,
      period: { from: "2026-01-01", to: "2026-03-31", preset: "custom" },
    });
    // Two years, a leap day included, is the longest period.
    expect(parse("from=2024-11-25&to=2026-11-24")).toMatchObject({ ok: true });
  });

  it.each([
    ["period=week", "period must be one of today, 7d, 30d, 12m, or custom with from and to."],
    ["period=7d&from=2026-11-01&to=2026-11-02", "Give either a period or from and to, not both."],
    ["from=2026-11-01", "Give both from and to (YYYY-MM-DD)."],
    ["to=2026-11-01", "Give both from and to (YYYY-MM-DD)."],
    ["from=2026-02-30&to=2026-03-01", "from must be a date written YYYY-MM-DD."],
    ["from=01/11/2026&to=2026-11-02", "from must be a date written YYYY-MM-DD."],
    ["from=2026-11-01&to=2026-11-02T00:00", "to must be a date written YYYY-MM-DD."],
    ["from=2026-11-01&to=+02026-11-0", "to must be a date written YYYY-MM-DD."],
    ["from=2026-11-10&to=2026-11-01", "from must be on or before to."],
    ["from=2026-11-20&to=2026-11-26", "to cannot be after today (2026-11-25, UTC)."],
    ["from=1999-12-31&to=2000-01-02", "from cannot be before 2000-01-01."],
    ["from=2024-01-01&to=2026-11-25", "A period is at most 731 days (two years)."],
  ])("refuses %s", (query, message) => {
    expect(parse(query)).toEqual({ ok: false, message });
  });
});
