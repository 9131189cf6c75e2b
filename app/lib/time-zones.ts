// Wall-clock times in any IANA time zone, with Intl only (shared by the browser and the server).
// A booking profile's working hours are wall times in the host's zone ("09:00 Europe/London");
// a slot is an instant. Twice a year a zone's clocks make a wall time ambiguous: in the spring gap
// it never happens (`toInstant` answers null), in the autumn's repeated hour it happens twice
// (`toInstant` answers the first, as calendars do), so a slot is never offered twice.

export type WallTime = { year: number; month: number; day: number; hour: number; minute: number };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    // A bounded cache: zones come from visitors (a select, the browser's zone).
    if (formats.size > 500) formats.clear();
    formats.set(zone, format);
  }
  return format;
}

/** True for a time zone this runtime knows ("Europe/London", "America/New_York", "UTC"). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== "string" || zone.length === 0 || zone.length > 64) return false;
  try {
    formatFor(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * Wall times already read, by zone and minute. Intl's formatToParts is most of a slot query's CPU
 * (issue 34's bench), and the same meetings and working days are read at every query; the answer
 * for a minute never changes. Bounded: the map starts again past its size.
 */
const wallTimes = new Map<string, WallTime>();
const MAX_REMEMBERED_WALL_TIMES = 50_000;

/** The wall time in `zone` at `instant` (milliseconds), to the minute. */
export function wallTimeAt(instant: number, zone: string): WallTime {
  const key = `${zone} ${Math.floor(instant / MINUTE_MS)}`;
  const known = wallTimes.get(key);
  if (known) return known;
  const parts: Record<string, number> = {};
  for (const part of formatFor(zone).formatToParts(new Date(instant)))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  const wall: WallTime = Object.freeze({
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
  });
  if (wallTimes.size >= MAX_REMEMBERED_WALL_TIMES) wallTimes.clear();
  wallTimes.set(key, wall);
  return wall;
}

/** How far `zone` is ahead of UTC at `instant`, in milliseconds. */
export function offsetAt(instant: number, zone: string): number {
  const wall = wallTimeAt(instant, zone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  return asUtc - Math.floor(instant / MINUTE_MS) * MINUTE_MS;
}

const sameWall = (a: WallTime, b: WallTime) =>
  a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute;

/**
 * The instant a wall time happens in `zone`: null when the clocks skip it (the spring gap), the
 * first of the two when they repeat it (the autumn's hour).
 */
export function toInstant(wall: WallTime, zone: string): number | null {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // The offsets a day either side cover any change of the clocks around this wall time.
  const candidates = new Set([offsetAt(asUtc - DAY_MS / 2, zone), offsetAt(asUtc + DAY_MS / 2, zone)]);
  let first: number | null = null;
  for (const offset of candidates) {
    const instant = asUtc - offset;
    if (sameWall(wallTimeAt(instant, zone), wall) && (first === null || instant < first)) first = instant;
  }
  return first;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "YYYY-MM-DD" as year, month and day, or null when it is not a real date. */
export function parseDate(value: string): { year: number; month: number; day: number } | null {
  const match = DATE_PATTERN.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return { year, month, day };
}

const pad = (value: number, size = 2) => String(value).padStart(size, "0");

/** The calendar date "YYYY-MM-DD" in `zone` at `instant`. */
export function dateIn(instant: number, zone: string): string {
  const wall = wallTimeAt(instant, zone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** `date` ("YYYY-MM-DD") moved by `days` calendar days. */
export function addDays(date: string, days: number): string {
  const parsed = parseDate(date);
  if (!parsed) throw new RangeError(`Not a date: ${date}`);
  const moved = new Date(Date.UTC(parsed.year, parsed.month - 1, parsed.day + days));
  return `${pad(moved.getUTCFullYear(), 4)}-${pad(moved.getUTCMonth() + 1)}-${pad(moved.getUTCDate())}`;
}

/** 0 (Sunday) to 6 (Saturday) for a "YYYY-MM-DD" date. */
export function weekdayOf(date: string): number {
  const parsed = parseDate(date);
  if (!parsed) throw new RangeError(`Not a date: ${date}`);
  return new Date(Date.UTC(parsed.year, parsed.month - 1, parsed.day)).getUTCDay();
}
