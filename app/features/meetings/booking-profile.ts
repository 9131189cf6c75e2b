import { z } from "zod";
import { isTimeZone, parseDate } from "#app/lib/time-zones.ts";

// A host's availability (issue 34): working hours per weekday in their time zone, days off, buffers
// around meetings, minimum notice, how far ahead, and a daily maximum. Shared by the Availability
// page, its script and `PUT /api/admin/availability`, so the browser and the server say the same.

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** `Date.getUTCDay()` (0 Sunday) to our keys. */
export const WEEKDAY_BY_INDEX: readonly Weekday[] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
  sun: "Sunday",
};

/** Wall times "HH:MM" in the profile's zone; `end` after `start` on the same day ("24:00" allowed). */
export type TimeRange = { start: string; end: string };

export type BookingProfile = {
  timeZone: string;
  weeklyHours: Record<Weekday, TimeRange[]>;
  /** "YYYY-MM-DD" in the profile's zone. */
  daysOff: string[];
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minimumNoticeMinutes: number;
  horizonDays: number;
  maxPerDay: number;
};

/** Meetings start and end on five-minute marks: the database's blocks (migration 033) are five minutes. */
export const BLOCK_MINUTES = 5;
export const DEFAULT_TIME_ZONE = "Europe/London";

const WORKDAY: TimeRange[] = [{ start: "09:00", end: "17:00" }];

/** Every admin and sales account without a profile of their own: bookable with no set-up. */
export const DEFAULT_BOOKING_PROFILE: BookingProfile = {
  timeZone: DEFAULT_TIME_ZONE,
  weeklyHours: { mon: WORKDAY, tue: WORKDAY, wed: WORKDAY, thu: WORKDAY, fri: WORKDAY, sat: [], sun: [] },
  daysOff: [],
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  // Two hours: time for the host to see it coming (Calendly offers 4 h, Cal.com none by default).
  minimumNoticeMinutes: 120,
  horizonDays: 60,
  maxPerDay: 8,
};

export const PROFILE_LIMITS = {
  rangesPerDay: 4,
  daysOff: 366,
  bufferMinutes: 120,
  noticeMinutes: 14 * 24 * 60,
  horizonDays: 365,
  maxPerDay: 48,
} as const;

export const PROFILE_MESSAGES = {
  timeZone: "Choose a time zone from the list.",
  time: "Enter a time as HH:MM on a five-minute mark, for example 09:00 or 17:30.",
  range: "Each period must end after it starts.",
  overlap: "Periods on the same day may not overlap.",
  rangesPerDay: `At most ${PROFILE_LIMITS.rangesPerDay} periods a day.`,
  date: "Enter days off as dates, YYYY-MM-DD.",
  daysOff: `At most ${PROFILE_LIMITS.daysOff} days off.`,
  buffer: `Buffers are 0 to ${PROFILE_LIMITS.bufferMinutes} minutes, in steps of 5.`,
  notice: `Minimum notice is 0 to ${PROFILE_LIMITS.noticeMinutes / 60} hours, in steps of 5 minutes.`,
  horizon: `Bookable from 1 to ${PROFILE_LIMITS.horizonDays} days ahead.`,
  maxPerDay: `A day holds 1 to ${PROFILE_LIMITS.maxPerDay} meetings.`,
} as const;

const TIME_PATTERN = /^([01]\d|2[0-4]):([0-5]\d)$/;

/** Minutes since midnight for "HH:MM", or null when it is not a five-minute mark of the day. */
export function minutesOfDay(value: string): number | null {
  const match = TIME_PATTERN.exec(value);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  if (minutes > 24 * 60 || minutes % BLOCK_MINUTES !== 0) return null;
  return minutes;
}

const timeRangeSchema = z
  .object({
    start: z.string().refine((value) => minutesOfDay(value) !== null, PROFILE_MESSAGES.time),
    end: z.string().refine((value) => minutesOfDay(value) !== null, PROFILE_MESSAGES.time),
  })
  .strict()
  .refine((range) => (minutesOfDay(range.end) ?? 0) > (minutesOfDay(range.start) ?? 0), {
    message: PROFILE_MESSAGES.range,
    path: ["end"],
  });

const dayRangesSchema = z
  .array(timeRangeSchema)
  .max(PROFILE_LIMITS.rangesPerDay, PROFILE_MESSAGES.rangesPerDay)
  .refine((ranges) => {
    const sorted = ranges
      .map((range) => [minutesOfDay(range.start) ?? 0, minutesOfDay(range.end) ?? 0] as const)
      .sort((a, b) => a[0] - b[0]);
    return sorted.every((range, i) => i === 0 || range[0] >= (sorted[i - 1]?.[1] ?? 0));
  }, PROFILE_MESSAGES.overlap);

const fiveMinuteSteps = (max: number, message: string) =>
  z
    .number({ error: message })
    .int(message)
    .min(0, message)
    .max(max, message)
    .refine((value) => value % BLOCK_MINUTES === 0, message);

export const bookingProfileSchema = z
  .object({
    timeZone: z.string().refine(isTimeZone, PROFILE_MESSAGES.timeZone),
    weeklyHours: z
      .object(
        Object.fromEntries(WEEKDAYS.map((day) => [day, dayRangesSchema])) as Record<
          Weekday,
          typeof dayRangesSchema
        >,
      )
      .strict(),
    daysOff: z
      .array(z.string().refine((value) => parseDate(value) !== null, PROFILE_MESSAGES.date))
      .max(PROFILE_LIMITS.daysOff, PROFILE_MESSAGES.daysOff)
      .transform((days) => [...new Set(days)].sort()),
    bufferBeforeMinutes: fiveMinuteSteps(PROFILE_LIMITS.bufferMinutes, PROFILE_MESSAGES.buffer),
    bufferAfterMinutes: fiveMinuteSteps(PROFILE_LIMITS.bufferMinutes, PROFILE_MESSAGES.buffer),
    minimumNoticeMinutes: fiveMinuteSteps(PROFILE_LIMITS.noticeMinutes, PROFILE_MESSAGES.notice),
    horizonDays: z
      .number({ error: PROFILE_MESSAGES.horizon })
      .int(PROFILE_MESSAGES.horizon)
      .min(1, PROFILE_MESSAGES.horizon)
      .max(PROFILE_LIMITS.horizonDays, PROFILE_MESSAGES.horizon),
    maxPerDay: z
      .number({ error: PROFILE_MESSAGES.maxPerDay })
      .int(PROFILE_MESSAGES.maxPerDay)
      .min(1, PROFILE_MESSAGES.maxPerDay)
      .max(PROFILE_LIMITS.maxPerDay, PROFILE_MESSAGES.maxPerDay),
  })
  .strict();

/**
 * The gap the database keeps after each of a host's meetings (its blocks run to end + gap): the
 * larger buffer, so the time between two meetings is at least the one's "after" and the other's
 * "before".
 */
export function meetingGapMinutes(
  profile: Pick<BookingProfile, "bufferBeforeMinutes" | "bufferAfterMinutes">,
) {
  return Math.max(profile.bufferBeforeMinutes, profile.bufferAfterMinutes);
}
