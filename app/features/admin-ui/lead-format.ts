import type { LeadStatus } from "#app/features/leads/lead-repository.server.ts";

// How the back office shows a lead's date and status (SPEC sections 4 and 9), on the server and in
// the browser alike.

// NOTE: an explicit zone, so the server's render and the browser's agree whatever their clocks say.
const leadDateFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "Europe/London",
});

/** "Nov 21, 2026, 10:05 AM" (UK time). */
export function formatLeadDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // ICU versions differ on the space before AM/PM (newer ones use U+202F): one plain space everywhere.
  return leadDateFormat.format(date).replace(/[\u202f\u00a0]/g, " ");
}

/**
 * Badge colours: new blue, contacted yellow, qualified green, unqualified red, anything else grey.
 * Each pair is dark text on a pale tint, above the 4.5:1 WCAG AA asks of small text.
 */
export const STATUS_BADGE_CLASS: Record<LeadStatus, string> = {
  new: "bg-blue-100 text-blue-900",
  contacted: "bg-yellow-100 text-yellow-900",
  qualified: "bg-green-100 text-green-900",
  unqualified: "bg-red-100 text-red-900",
  customer: "bg-slate-200 text-slate-900",
};

const OTHER_BADGE_CLASS = "bg-slate-200 text-slate-900";

/** The five statuses in the dropdown's order (typed from the record, so a new status cannot be missed). */
export const LEAD_STATUS_OPTIONS = Object.keys(STATUS_BADGE_CLASS) as LeadStatus[];

export function statusBadgeClass(status: string): string {
  return STATUS_BADGE_CLASS[status as LeadStatus] ?? OTHER_BADGE_CLASS;
}

/** SPEC section 4: the first letter capitalised. */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}
