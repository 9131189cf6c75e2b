import { describe, expect, it } from "vitest";
import { mergeSlots, openSlots } from "./availability.ts";
import { type BookingProfile, bookingProfileSchema, DEFAULT_BOOKING_PROFILE } from "./booking-profile.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();
const wall = (instant: number, zone: string) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(instant);

const DAY = 86_400_000;

function slots(
  profile: Partial<BookingProfile>,
  now: string,
  options: Partial<Parameters<typeof openSlots>[0]> = {},
) {
  const clock = at(now);
  return openSlots({
    profile: { ...DEFAULT_BOOKING_PROFILE, ...profile },
    durationMinutes: 30,
    from: clock,
    to: clock + 7 * DAY,
    now: clock,
    meetings: [],
    ...options,
  });
}

describe("open slots", () => {
  it("offers Monday to Friday, 09:00 to 17:00 London, every 30 minutes, after two hours' notice", () => {
    // Monday 7 December 2026, 08:00 in London (GMT).
    const found = slots({}, "2026-12-07T08:00:00Z");
    const byDay = Map.groupBy(found, (slot) => wall(slot.start, "Europe/London").split(", ")[0]);
    // A week to the minute: Monday the 14th's hours start after the window's end (08:00).
    expect([...byDay.keys()]).toEqual(["Mon 7 Dec", "Tue 8 Dec", "Wed 9 Dec", "Thu 10 Dec", "Fri 11 Dec"]);
    expect(byDay.get("Mon 7 Dec")?.map((slot) => wall(slot.start, "Europe/London").slice(-5))).toEqual([
      "10:00",
      "10:30",
      "11:00",
      "11:30",
      "12:00",
      "12:30",
      "13:00",
      "13:30",
      "14:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
      "16:30",
    ]);
    expect(byDay.get("Tue 8 Dec")).toHaveLength(16);
    expect(found.every((slot) => slot.end - slot.start === 30 * 60_000)).toBe(true);
  });

  it("shows a host in London and a prospect in New York the same instant", () => {
    const found = slots({}, "2026-12-07T08:00:00Z");
    const first = found[0];
    expect(first && iso(first.start)).toBe("2026-12-07T10:00:00.000Z");
    expect(first && wall(first.start, "America/New_York")).toBe("Mon 7 Dec, 05:00");
    // Between the US change (14 March 2027) and the UK's (28 March), 09:00 London is 05:00 in New York.
    const march = slots({}, "2027-03-15T00:00:00Z");
    expect(march[0] && iso(march[0].start)).toBe("2027-03-15T09:00:00.000Z");
    expect(march[0] && wall(march[0].start, "America/New_York")).toBe("Mon 15 Mar, 05:00");
  });

  it("offers no time inside March's gap and none twice in October's repeated hour", () => {
    const night = { start: "00:00", end: "04:00" };
    const nights = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [night] };
    const profile = { weeklyHours: nights, minimumNoticeMinutes: 0 };
    // Sunday 28 March 2027: at 01:00 GMT the clocks go to 02:00 BST.
    const spring = slots(profile, "2027-03-27T12:00:00Z", { to: at("2027-03-29T00:00:00Z") });
    expect(spring.map((slot) => wall(slot.start, "Europe/London").slice(-5))).toEqual([
      "00:00",
      "00:30",
      "02:00",
      "02:30",
      "03:00",
      "03:30",
    ]);
    expect(spring.map((slot) => iso(slot.start))).toEqual([
      "2027-03-28T00:00:00.000Z",
      "2027-03-28T00:30:00.000Z",
      "2027-03-28T01:00:00.000Z",
      "2027-03-28T01:30:00.000Z",
      "2027-03-28T02:00:00.000Z",
      "2027-03-28T02:30:00.000Z",
    ]);
    // Sunday 25 October 2026: at 02:00 BST the clocks go back to 01:00 GMT; 01:00-01:59 happens twice.
    const autumn = slots(profile, "2026-10-24T12:00:00Z", { to: at("2026-10-26T00:00:00Z") });
    const starts = autumn.map((slot) => slot.start);
    expect(new Set(starts).size).toBe(starts.length);
    expect(autumn.map((slot) => iso(slot.start))).toEqual([
      "2026-10-24T23:00:00.000Z",
      "2026-10-24T23:30:00.000Z", // 00:00, 00:30 BST
      "2026-10-25T00:00:00.000Z",
      "2026-10-25T00:30:00.000Z", // 01:00, 01:30 BST (the first time)
      "2026-10-25T02:00:00.000Z",
      "2026-10-25T02:30:00.000Z", // 02:00, 02:30 GMT
      "2026-10-25T03:00:00.000Z",
      "2026-10-25T03:30:00.000Z",
    ]);
    // No two offered meetings overlap, whatever the clocks did.
    for (const [i, slot] of autumn.entries())
      if (i > 0) expect(slot.start).toBeGreaterThanOrEqual(autumn[i - 1]?.end ?? 0);
  });

  it("works in the host's own zone", () => {
    const found = slots({ timeZone: "America/New_York" }, "2026-12-07T00:00:00Z");
    expect(found[0] && iso(found[0].start)).toBe("2026-12-07T14:00:00.000Z"); // 09:00 EST
    expect(found[0] && wall(found[0].start, "Europe/London")).toBe("Mon 7 Dec, 14:00");
  });

  it("keeps meetings, calendar busy times and the buffers around them free", () => {
    const meeting = { start: at("2026-12-08T10:00:00Z"), end: at("2026-12-08T10:30:00Z") };
    const busy = { start: at("2026-12-08T13:10:00Z"), end: at("2026-12-08T13:50:00Z") };
    const tuesday = (profile: Partial<BookingProfile>) =>
      slots(profile, "2026-12-08T00:00:00Z", {
        to: at("2026-12-09T00:00:00Z"),
        meetings: [meeting],
        busy: [busy],
      }).map((slot) => wall(slot.start, "Europe/London").slice(-5));
    expect(tuesday({})).toEqual([
      "09:00",
      "09:30",
      "10:30",
      "11:00",
      "11:30",
      "12:00",
      "12:30",
      "14:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
      "16:30",
    ]);
    // 15 minutes after and 15 before: 09:30-10:00 ends within 15 minutes of the meeting, 10:30 starts
    // within it; 12:30-13:00 ends within 15 minutes of the busy time.
    expect(tuesday({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 })).toEqual([
      "09:00",
      "11:00",
      "11:30",
      "12:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
      "16:30",
    ]);
  });

  it("honours days off, the daily maximum, the notice and the horizon", () => {
    const now = "2026-12-07T08:00:00Z";
    const dates = (profile: Partial<BookingProfile>, meetings = [] as { start: number; end: number }[]) => [
      ...new Set(
        slots(profile, now, { meetings, to: at(now) + 30 * DAY }).map((slot) => iso(slot.start).slice(0, 10)),
      ),
    ];
    expect(dates({ daysOff: ["2026-12-08"] })).not.toContain("2026-12-08");
    const two = [at("2026-12-09T09:00:00Z"), at("2026-12-09T15:00:00Z")].map((start) => ({
      start,
      end: start + 1_800_000,
    }));
    expect(dates({ maxPerDay: 2 }, two)).not.toContain("2026-12-09");
    expect(dates({ maxPerDay: 3 }, two)).toContain("2026-12-09");
    expect(dates({ horizonDays: 3 })).toEqual(["2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10"]);
    expect(slots({ minimumNoticeMinutes: 24 * 60 }, now)[0]?.start).toBe(at("2026-12-08T09:00:00Z"));
  });

  it("merges hosts' slots into one list, each time once", () => {
    const a = [
      { start: 1, end: 2 },
      { start: 3, end: 4 },
    ];
    const b = [
      { start: 3, end: 4 },
      { start: 0, end: 1 },
    ];
    expect(mergeSlots([a, b]).map((slot) => slot.start)).toEqual([0, 1, 3]);
  });
});

describe("booking profile", () => {
  const valid = { ...DEFAULT_BOOKING_PROFILE };

  it("takes the defaults and refuses what the page says it refuses", () => {
    expect(bookingProfileSchema.safeParse(valid).success).toBe(true);
    const refused = (change: Record<string, unknown>) => {
      const result = bookingProfileSchema.safeParse({ ...valid, ...change });
      return result.success ? null : result.error.issues[0]?.message;
    };
    expect(refused({ timeZone: "Mars/Olympus" })).toBe("Choose a time zone from the list.");
    expect(
      refused({ weeklyHours: { ...valid.weeklyHours, mon: [{ start: "09:07", end: "17:00" }] } }),
    ).toMatch(/five-minute/);
    expect(refused({ weeklyHours: { ...valid.weeklyHours, mon: [{ start: "17:00", end: "09:00" }] } })).toBe(
      "Each period must end after it starts.",
    );
    expect(
      refused({
        weeklyHours: {
          ...valid.weeklyHours,
          mon: [
            { start: "09:00", end: "12:00" },
            { start: "11:00", end: "13:00" },
          ],
        },
      }),
    ).toBe("Periods on the same day may not overlap.");
    expect(refused({ daysOff: ["2026-02-30"] })).toBe("Enter days off as dates, YYYY-MM-DD.");
    expect(refused({ bufferAfterMinutes: 7 })).toMatch(/steps of 5/);
    expect(refused({ maxPerDay: 0 })).toMatch(/1 to 48/);
    expect(refused({ extra: 1 })).toBeTruthy();
  });
});
