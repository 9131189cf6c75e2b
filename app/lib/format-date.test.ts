import { describe, expect, test } from "vitest";
import {
  formatCalendarDay,
  formatDate,
  formatDateTime,
  formatLeadDate,
  formatShortCalendarDay,
  formatTime,
} from "./format-date.ts";

describe("formatDateTime", () => {
  test("short month, day, year, hour and minute in UK time, with plain spaces", () => {
    expect(formatDateTime("2026-11-21T10:05:00.000Z")).toBe("Nov 21, 2026, 10:05 AM");
    // British Summer Time is an hour ahead of UTC.
    expect(formatDateTime("2026-07-01T23:30:00.000Z")).toBe("Jul 2, 2026, 12:30 AM");
  });

  test("shows text it cannot read as a date unchanged", () => {
    expect(formatDateTime("yesterday")).toBe("yesterday");
  });
});

describe("formatLeadDate (SPEC section 9, issue 32)", () => {
  test("short month, day, year, two-digit hour and minute, en-US, in UK time", () => {
    expect(formatLeadDate("2025-11-21T15:16:00.000Z")).toBe("Nov 21, 2025, 03:16 PM");
    expect(formatLeadDate("2026-07-01T23:30:00.000Z")).toBe("Jul 2, 2026, 12:30 AM");
    expect(formatLeadDate("not a date")).toBe("not a date");
  });
});

describe("the back office's other date forms, in the same style", () => {
  test("with seconds, a date alone, and calendar days that no zone moves", () => {
    expect(formatDateTime("2026-11-21T10:05:07.000Z", { seconds: true })).toBe("Nov 21, 2026, 10:05:07 AM");
    expect(formatDate("2026-07-01T23:30:00.000Z")).toBe("Jul 2, 2026");
    expect(formatTime("2026-07-01T09:42:30.000Z")).toBe("10:42 AM");
    expect(formatTime("2026-12-01T09:42:30.000Z")).toBe("9:42 AM");
    expect(formatCalendarDay("2026-11-25")).toBe("Nov 25, 2026");
    expect(formatShortCalendarDay("2026-01-01")).toBe("Jan 1");
    expect(formatCalendarDay("not a day")).toBe("not a day");
  });
});
