import { addDays, dateIn, parseDate, toInstant, weekdayOf } from "#app/lib/time-zones.ts";
import {
  type BookingProfile,
  meetingGapMinutes,
  minutesOfDay,
  type TimeRange,
  WEEKDAY_BY_INDEX,
} from "./booking-profile.ts";

// Which times a host can be booked at (issue 34): pure, given the clock, so daylight saving and the
// limits are tested with a fixed one. Slots are walked in the host's wall time and each is turned
// into one instant: the spring gap's wall times have none (no slot), the autumn's repeated hour gives
// its first (no slot twice), and a host in London and a prospect in New York read the same instant.

/** Milliseconds since the epoch, start inclusive, end exclusive. */
export type Interval = { start: number; end: number };

const MINUTE_MS = 60_000;

export type SlotQuery = {
  profile: BookingProfile;
  durationMinutes: number;
  /** Between two offered starts; the meeting's length when not given. */
  stepMinutes?: number;
  /** The window asked for. */
  from: number;
  to: number;
  now: number;
  /** The host's booked meetings: they block their time plus the host's gap after and before. */
  meetings: readonly Interval[];
  /** Busy times from the host's calendar: they block their time plus the buffers around a meeting. */
  busy?: readonly Interval[];
};

/** Sorted intervals with the running maximum of their ends: "does anything overlap" in O(log n). */
function overlapIndex(intervals: Interval[]) {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const maxEnd: number[] = [];
  for (const [i, interval] of sorted.entries())
    maxEnd.push(Math.max(interval.end, maxEnd[i - 1] ?? -Infinity));
  return (start: number, end: number): boolean => {
    // The last interval starting before `end`: any overlap starts before it and ends after `start`.
    let low = 0;
    let high = sorted.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((sorted[middle]?.start ?? 0) < end) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found >= 0 && (maxEnd[found] ?? -Infinity) > start;
  };
}

/** The instant of a wall time "HH:MM" (or "24:00") on `date` in `zone`; a time the clocks skip moves on to when they resume. */
function instantOf(date: string, minutes: number, zone: string): number | null {
  const day = parseDate(minutes >= 24 * 60 ? addDays(date, 1) : date);
  if (!day) return null;
  const minute = minutes % (24 * 60);
  return toInstant({ ...day, hour: Math.floor(minute / 60), minute: minute % 60 }, zone);
}

/** A range's end as an instant: when its wall time does not exist (the spring gap), an hour later minus the hour. */
function rangeEndInstant(date: string, minutes: number, zone: string): number | null {
  const end = instantOf(date, minutes, zone);
  if (end !== null) return end;
  const hourLater = instantOf(date, minutes + 60, zone);
  return hourLater === null ? null : hourLater - 60 * MINUTE_MS;
}

/** The starts a host can be booked at within the query's window, ascending, each once. */
export function openSlots(query: SlotQuery): Interval[] {
  const { profile, durationMinutes, from, to, now } = query;
  const zone = profile.timeZone;
  const step = (query.stepMinutes ?? durationMinutes) * MINUTE_MS;
  const duration = durationMinutes * MINUTE_MS;
  const gap = meetingGapMinutes(profile) * MINUTE_MS;
  const blocked = overlapIndex([
    ...query.meetings.map((meeting) => ({ start: meeting.start - gap, end: meeting.end + gap })),
    ...(query.busy ?? []).map((busy) => ({
      start: busy.start - profile.bufferAfterMinutes * MINUTE_MS,
      end: busy.end + profile.bufferBeforeMinutes * MINUTE_MS,
    })),
  ]);
  const earliest = Math.max(from, now + profile.minimumNoticeMinutes * MINUTE_MS);
  const lastDate = addDays(dateIn(now, zone), profile.horizonDays);
  const perDay = new Map<string, number>();
  for (const meeting of query.meetings) {
    const date = dateIn(meeting.start, zone);
    perDay.set(date, (perDay.get(date) ?? 0) + 1);
  }
  const daysOff = new Set(profile.daysOff);
  const slots: Interval[] = [];
  const seen = new Set<number>();
  if (earliest >= to) return slots;
  // A day before and after: the window's edges fall on other dates in the host's zone.
  const endDate = dateIn(to, zone);
  for (
    let date = addDays(dateIn(earliest, zone), -1);
    date <= endDate && date <= lastDate;
    date = addDays(date, 1)
  ) {
    if (daysOff.has(date) || (perDay.get(date) ?? 0) >= profile.maxPerDay) continue;
    const weekday = WEEKDAY_BY_INDEX[weekdayOf(date)];
    const ranges: TimeRange[] = weekday ? profile.weeklyHours[weekday] : [];
    for (const range of [...ranges].sort((a, b) => a.start.localeCompare(b.start))) {
      const startMinutes = minutesOfDay(range.start);
      const endMinutes = minutesOfDay(range.end);
      if (startMinutes === null || endMinutes === null) continue;
      const rangeEnd = rangeEndInstant(date, endMinutes, zone);
      if (rangeEnd === null) continue;
      // NOTE: turning a wall time into an instant asks Intl several times (most of a slot query's
      // CPU, issue 34's bench). When the range's two ends are as far apart as its wall times, the
      // clocks do not change inside it, and every start is the first one plus whole steps.
      const rangeStart = instantOf(date, startMinutes, zone);
      const steady = rangeStart !== null && rangeEnd - rangeStart === (endMinutes - startMinutes) * MINUTE_MS;
      for (let minutes = startMinutes; minutes < endMinutes; minutes += step / MINUTE_MS) {
        const start =
          steady && rangeStart !== null
            ? rangeStart + (minutes - startMinutes) * MINUTE_MS
            : instantOf(date, minutes, zone);
        if (start === null || seen.has(start)) continue; // the spring gap; the autumn's hour again
        const end = start + duration;
        if (end > rangeEnd) break;
        if (start < earliest || start >= to || blocked(start, end)) continue;
        seen.add(start);
        slots.push({ start, end });
      }
    }
  }
  return slots.sort((a, b) => a.start - b.start);
}

/** Several hosts' slots as the public sees them: each start once, no host named. */
export function mergeSlots(lists: readonly (readonly Interval[])[]): Interval[] {
  const byStart = new Map<number, Interval>();
  for (const list of lists)
    for (const slot of list) if (!byStart.has(slot.start)) byStart.set(slot.start, slot);
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}
