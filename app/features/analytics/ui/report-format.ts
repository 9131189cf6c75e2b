// How the analytics page writes its figures, on the server and in the browser alike (UTC days).

import { formatCalendarDay, formatShortCalendarDay } from "#app/lib/format-date.ts";

const whole = new Intl.NumberFormat("en-GB");

/** 12,345 */
export function formatCount(value: number): string {
  return whole.format(value);
}

/** A rate as a percentage, "12.5%" (one decimal under 10 %, none above); null: "—" (no visitors). */
export function formatRate(value: number | null): string {
  if (value === null) return "—";
  const percent = value * 100;
  if (percent === 0 || percent === 100) return `${percent}%`;
  return `${percent < 10 ? percent.toFixed(1) : percent.toFixed(0)}%`;
}

/**
 * Each funnel step's share of the step it follows (`of[index]`, the step before unless said), as its
 * label and its bar show it: the first step is the whole (1, or 0 when empty), a step after an empty
 * one has none (null), and no share is above 1, though a step can count more than the one before
 * (leads sent through the API have no page view).
 */
export function stepShares(
  values: readonly number[],
  of: readonly (number | undefined)[] = [],
): (number | null)[] {
  return values.map((value, index) => {
    if (index === 0) return value > 0 ? 1 : 0;
    const before = values[of[index] ?? index - 1] ?? 0;
    return before > 0 ? Math.min(1, value / before) : null;
  });
}

/**
 * A wait as a person says it: "under 1 min", "4 min", "2 h 10 min", "3 h", then days to one
 * decimal, "1.5 days", "1 day", "12 days". Minutes are rounded, so 59.6 minutes is "1 h".
 */
export function formatWait(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return "under 1 min";
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) {
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  }
  const days = Math.round((seconds / 86_400) * 10) / 10;
  return days === 1 ? "1 day" : `${days.toLocaleString("en-GB", { maximumFractionDigits: 1 })} days`;
}

/** "Nov 25, 2026" for YYYY-MM-DD, as every back-office date (lib/format-date.ts). */
export function formatDay(day: string): string {
  return formatCalendarDay(day);
}

/** "Nov 25" for YYYY-MM-DD. */
export function formatShortDay(day: string): string {
  return formatShortCalendarDay(day);
}

/** A series point's label: "Nov 25, 2026", or "14:00" for an hour (YYYY-MM-DDTHH:00Z). */
export function formatPoint(start: string): string {
  return start.length > 10 ? `${start.slice(11, 16)}` : formatDay(start);
}

/** "Nov 25, 2026", or "Nov 1, 2026 – Nov 25, 2026". */
export function formatRange(from: string, to: string): string {
  return from === to ? formatDay(from) : `${formatDay(from)} – ${formatDay(to)}`;
}

export type Change = { text: string; direction: "up" | "down" | "same" | "new" };

/** A count against the previous period's: "+12%", "−3%", "no change", or "new" from nothing. */
export function countChange(current: number, previous: number): Change {
  if (previous === 0)
    return current === 0 ? { text: "no change", direction: "same" } : { text: "new", direction: "new" };
  const change = (current - previous) / previous;
  if (Math.abs(change) < 0.0005) return { text: "no change", direction: "same" };
  const percent = Math.abs(change * 100);
  const digits = percent < 10 ? percent.toFixed(1) : percent.toFixed(0);
  return change > 0 ? { text: `+${digits}%`, direction: "up" } : { text: `−${digits}%`, direction: "down" };
}

/** A rate against the previous one, in percentage points: "+1.2 pts". */
export function rateChange(current: number, previous: number): Change {
  const points = (current - previous) * 100;
  if (Math.abs(points) < 0.05) return { text: "no change", direction: "same" };
  return points > 0
    ? { text: `+${points.toFixed(1)} pts`, direction: "up" }
    : { text: `−${Math.abs(points).toFixed(1)} pts`, direction: "down" };
}
