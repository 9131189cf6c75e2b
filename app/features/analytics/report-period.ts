// The period an analytics report covers (issue 12, /admin/analytics and GET /api/admin/analytics):
// UTC days, both ends inclusive. Pure, so the page's period picker and the server agree; the server
// validates every value that comes from a URL here.

export const PERIOD_PRESETS = ["today", "7d", "30d", "12m"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PRESET_LABELS: Record<PeriodPreset, string> = {
  today: "Today",
  "7d": "7 days",
  "30d": "30 days",
  "12m": "12 months",
};

/** What a report asked for without a period: the last 30 days. */
export const DEFAULT_PRESET: PeriodPreset = "30d";
/** The longest period a report reads: two years (a leap day included). */
export const MAX_PERIOD_DAYS = 731;
/** Nothing is counted before this; an earlier date is a typo, not a question. */
export const EARLIEST_DAY = "2000-01-01";

export type ReportPeriod = {
  /** YYYY-MM-DD, UTC, inclusive. */
  from: string;
  /** YYYY-MM-DD, UTC, inclusive. */
  to: string;
  /** The preset it matches, or "custom". */
  preset: PeriodPreset | "custom";
};

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC day of a time, YYYY-MM-DD. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** `day` moved by `days` (negative: earlier). */
export function addDays(day: string, days: number): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS));
}

/** Days from `from` to `to`, both counted. */
export function daysIn(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS) + 1;
}

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00.000Z`);
  return !Number.isNaN(time) && dayOf(new Date(time)) === value;
}

/** The days a preset covers, ending today (UTC). 12 months: the same date a year ago, the day after. */
export function presetPeriod(preset: PeriodPreset, today: string): ReportPeriod {
  switch (preset) {
    case "today":
      return { from: today, to: today, preset };
    case "7d":
      return { from: addDays(today, -6), to: today, preset };
    case "30d":
      return { from: addDays(today, -29), to: today, preset };
    case "12m": {
      const [year = 0, month = 1, day = 1] = today.split("-").map(Number);
      // 29 February a year back is 28 February (then the day after: 1 March).
      const lastDay = new Date(Date.UTC(year - 1, month, 0)).getUTCDate();
      const yearAgo = dayOf(new Date(Date.UTC(year - 1, month - 1, Math.min(day, lastDay))));
      return { from: addDays(yearAgo, 1), to: today, preset };
    }
  }
}

/** The preset a range matches today, or "custom". */
function presetOf(from: string, to: string, today: string): PeriodPreset | "custom" {
  for (const preset of PERIOD_PRESETS) {
    const period = presetPeriod(preset, today);
    if (period.from === from && period.to === to) return preset;
  }
  return "custom";
}

/** The period of the same length just before (the report's comparison). */
export function previousPeriod(period: { from: string; to: string }): { from: string; to: string } {
  const length = daysIn(period.from, period.to);
  return { from: addDays(period.from, -length), to: addDays(period.from, -1) };
}

export type PeriodQuery = { ok: true; period: ReportPeriod } | { ok: false; message: string };

/**
 * The period a URL asks for: `period=today|7d|30d|12m`, or `from` and `to` (YYYY-MM-DD, UTC, both
 * inclusive); neither: the last 30 days. Refused with a message a person can act on: a malformed or
 * impossible date, one end without the other, `from` after `to`, `to` after today, before 2000, or
 * longer than two years.
 */
export function parsePeriodQuery(params: URLSearchParams, now: Date): PeriodQuery {
  const today = dayOf(now);
  const preset = params.get("period");
  const from = params.get("from");
  const to = params.get("to");
  if (preset !== null && preset !== "" && preset !== "custom") {
    if (!(PERIOD_PRESETS as readonly string[]).includes(preset))
      return { ok: false, message: "period must be one of today, 7d, 30d, 12m, or custom with from and to." };
    if (from || to) return { ok: false, message: "Give either a period or from and to, not both." };
    return { ok: true, period: presetPeriod(preset as PeriodPreset, today) };
  }
  if (!from && !to) return { ok: true, period: presetPeriod(DEFAULT_PRESET, today) };
  if (!from || !to) return { ok: false, message: "Give both from and to (YYYY-MM-DD)." };
  if (from.length > 10 || !isDay(from))
    return { ok: false, message: "from must be a date written YYYY-MM-DD." };
  if (to.length > 10 || !isDay(to)) return { ok: false, message: "to must be a date written YYYY-MM-DD." };
  if (from > to) return { ok: false, message: "from must be on or before to." };
  if (to > today) return { ok: false, message: `to cannot be after today (${today}, UTC).` };
  if (from < EARLIEST_DAY) return { ok: false, message: `from cannot be before ${EARLIEST_DAY}.` };
  if (daysIn(from, to) > MAX_PERIOD_DAYS)
    return { ok: false, message: `A period is at most ${MAX_PERIOD_DAYS} days (two years).` };
  return { ok: true, period: { from, to, preset: presetOf(from, to, today) } };
}
