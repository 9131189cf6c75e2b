import { offsetAt, toInstant, wallTimeAt } from "#app/lib/time-zones.ts";

// A schedule is chosen in UK time and stored in UTC (issue 24): the editor's date-and-time box
// (`<input type="datetime-local">`, "2026-07-01T09:00") has no zone, so the studio reads it as
// Europe/London, whatever the server's or the browser's own zone is. Pure (Intl only), shared by the
// server's action and the browser's editor.
//
// Twice a year the UK's clocks make a local time ambiguous: on the last Sunday of March 01:00–01:59
// never happens (clocks go from 01:00 GMT to 02:00 BST), and on the last Sunday of October
// 01:00–01:59 happens twice (BST, then GMT). The first is refused with a message; the second is read
// as its first occurrence (BST), as calendars do.

const ZONE = "Europe/London";
const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const MINUTE_MS = 60_000;

/** How far UK time is ahead of UTC at `instant`, in milliseconds (0 in winter, an hour in summer). */
export function londonOffsetMs(instant: number): number {
  return offsetAt(instant, ZONE);
}

const pad = (value: number, size = 2) => String(value).padStart(size, "0");

export type LondonTimeResult =
  | { ok: true; date: Date }
  | { ok: false; reason: "malformed" | "nonexistent"; message: string };

export const LONDON_TIME_MESSAGES = {
  malformed: "Enter the date and time as day, month, year, hours and minutes",
  nonexistent:
    "That time does not exist in the UK: the clocks go forward an hour that night. Choose 2:00 AM or later",
} as const;

/**
 * A `datetime-local` value read as UK time, as an instant. "2026-07-01T09:00" → 08:00 UTC (BST);
 * "2026-12-01T09:00" → 09:00 UTC (GMT).
 */
export function fromLondonLocal(value: string): LondonTimeResult {
  const match = LOCAL_PATTERN.exec(value.trim());
  if (!match) return { ok: false, reason: "malformed", message: LONDON_TIME_MESSAGES.malformed };
  const [year, month, day, hour, minute, second = 0] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number?,
  ];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 February into March: such a day is not a day.
  const check = new Date(asUtc);
  if (
    month < 1 ||
    month > 12 ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    check.getUTCDate() !== day ||
    check.getUTCMonth() !== month - 1
  )
    return { ok: false, reason: "malformed", message: LONDON_TIME_MESSAGES.malformed };
  // An hour that happens twice is read as its first occurrence (summer time); one the clocks skip
  // has no instant.
  const instant = toInstant({ year, month, day, hour, minute }, ZONE);
  if (instant === null)
    return { ok: false, reason: "nonexistent", message: LONDON_TIME_MESSAGES.nonexistent };
  return { ok: true, date: new Date(instant + second * 1000) };
}

/** An instant as a `datetime-local` value in UK time, to the minute: "2026-07-01T09:00". */
export function toLondonLocal(instant: Date | string): string {
  const time = typeof instant === "string" ? Date.parse(instant) : instant.getTime();
  const p = wallTimeAt(Math.floor(time / MINUTE_MS) * MINUTE_MS, ZONE);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** "GMT" or "BST": which UK time an instant falls in, for the label beside a time. */
export function londonZoneName(instant: Date | string): "GMT" | "BST" {
  const time = typeof instant === "string" ? Date.parse(instant) : instant.getTime();
  return londonOffsetMs(time) === 0 ? "GMT" : "BST";
}
