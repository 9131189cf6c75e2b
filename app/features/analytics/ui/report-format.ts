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
 * Each funnel step's share of the step before, as its label and its bar show it: the first step is
 * the whole (1, or 0 when empty), a step after an empty one has none (null), and no share is above 1, though a step
 * can count more than the one before (leads sent through the API have no page view).
 */
export function stepShares(values: readonly number[]): (number | null)[] {
  return values.map((value, index) => {
    if (index === 0) return value > 0 ? 1 : 0;
    const before = values[index - 1] ?? 0;
    return before > 0 ? Math.min(1, value / before) : null;
  });
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
