import { describe, expect, test } from "vitest";
import { formatDateTime } from "#app/lib/format-date.ts";
import { fromLondonLocal, LONDON_TIME_MESSAGES, londonZoneName, toLondonLocal } from "./london-time.ts";

const instant = (value: string) => {
  const result = fromLondonLocal(value);
  if (!result.ok) throw new Error(result.message);
  return result.date.toISOString();
};

describe("a schedule typed in UK time", () => {
  test("in summer (BST) is an hour ahead of UTC", () => {
    expect(instant("2026-07-01T09:00")).toBe("2026-07-01T08:00:00.000Z");
    expect(londonZoneName("2026-07-01T08:00:00.000Z")).toBe("BST");
  });

  test("in winter (GMT) is UTC", () => {
    expect(instant("2026-12-01T09:00")).toBe("2026-12-01T09:00:00.000Z");
    expect(londonZoneName("2026-12-01T09:00:00.000Z")).toBe("GMT");
  });

  test("shows back as it was typed, in the back office's date format", () => {
    for (const typed of ["2026-07-01T09:00", "2026-12-01T09:00", "2027-03-28T00:30", "2026-10-25T23:45"]) {
      const stored = instant(typed);
      expect(toLondonLocal(stored)).toBe(typed);
    }
    expect(formatDateTime(instant("2026-07-01T09:00"))).toBe("Jul 1, 2026, 9:00 AM");
    expect(formatDateTime(instant("2026-12-01T09:00"))).toBe("Dec 1, 2026, 9:00 AM");
  });

  test("on the night the clocks go forward, the missing hour is refused with a reason", () => {
    // 29 March 2026: 01:00 GMT becomes 02:00 BST.
    expect(instant("2026-03-29T00:59")).toBe("2026-03-29T00:59:00.000Z");
    expect(fromLondonLocal("2026-03-29T01:30")).toEqual({
      ok: false,
      reason: "nonexistent",
      message: LONDON_TIME_MESSAGES.nonexistent,
    });
    expect(instant("2026-03-29T02:00")).toBe("2026-03-29T01:00:00.000Z");
  });

  test("on the night the clocks go back, the hour that happens twice is its first (BST)", () => {
    // 25 October 2026: 02:00 BST becomes 01:00 GMT, so 01:30 happens at 00:30 and at 01:30 UTC.
    expect(instant("2026-10-25T01:30")).toBe("2026-10-25T00:30:00.000Z");
    expect(instant("2026-10-25T02:30")).toBe("2026-10-25T02:30:00.000Z");
    // Both instants read back as 01:30 UK time.
    expect(toLondonLocal("2026-10-25T01:30:00.000Z")).toBe("2026-10-25T01:30");
  });

  test("refuses what is not a date and time", () => {
    for (const value of ["", "tomorrow", "2026-02-30T09:00", "2026-13-01T09:00", "2026-07-01T24:00"])
      expect(fromLondonLocal(value)).toMatchObject({ ok: false, reason: "malformed" });
    // Seconds, as some browsers send them, are accepted.
    expect(instant("2026-07-01T09:00:30")).toBe("2026-07-01T08:00:30.000Z");
  });
});
