// How the back office shows a date and time (leads, staff sign-ins, audits, API keys, webhook
// deliveries, analytics days, search results): one format everywhere, "Nov 21, 2026, 10:05 AM", on
// the server and in the browser alike. Issue 23 folded the staff, webhook and analytics formats in.

// NOTE: an explicit zone, so the server's render and the browser's agree whatever their clocks say.
const ZONE = "Europe/London";
const dateParts = { month: "short", day: "numeric", year: "numeric" } as const;
const dateTimeFormat = new Intl.DateTimeFormat("en-US", {
  ...dateParts,
  hour: "numeric",
  minute: "2-digit",
  timeZone: ZONE,
});
const dateTimeSecondsFormat = new Intl.DateTimeFormat("en-US", {
  ...dateParts,
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
  timeZone: ZONE,
});
/** SPEC section 9's lead date: short month, day, year, hour and minute, the hour on two digits. */
const leadDateFormat = new Intl.DateTimeFormat("en-US", {
  ...dateParts,
  hour: "2-digit",
  minute: "2-digit",
  timeZone: ZONE,
});
const dateFormat = new Intl.DateTimeFormat("en-US", { ...dateParts, timeZone: ZONE });
const timeFormat = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: ZONE });
/** Calendar days (analytics report days, YYYY-MM-DD) are UTC days: no zone may move them. */
const dayFormat = new Intl.DateTimeFormat("en-US", { ...dateParts, timeZone: "UTC" });
const shortDayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

// ICU versions differ on the space before AM/PM (newer ones use U+202F): one plain space everywhere.
const plainSpaces = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Nov 21, 2026, 10:05 AM" (UK time); with `seconds`, "Nov 21, 2026, 10:05:07 AM" (a retry schedule). */
export function formatDateTime(iso: string, { seconds = false } = {}): string {
  const date = parse(iso);
  if (!date) return iso;
  return plainSpaces((seconds ? dateTimeSecondsFormat : dateTimeFormat).format(date));
}

/**
 * A lead's date as SPEC section 9 asks ("Lead date format: short month, day, year, hour, minute
 * (en-US)") and issue 32 shows it: "Nov 21, 2025, 03:16 PM" (UK time, as every back-office time).
 * The lead list's Date column and the lead page use it.
 */
export function formatLeadDate(iso: string): string {
  const date = parse(iso);
  return date ? plainSpaces(leadDateFormat.format(date)) : iso;
}

/** "10:05 AM" (UK time): a moment of today, such as when a draft was last saved. */
export function formatTime(iso: string): string {
  const date = parse(iso);
  return date ? plainSpaces(timeFormat.format(date)) : iso;
}

/** "Nov 21, 2026" (the UK date of an instant). */
export function formatDate(iso: string): string {
  const date = parse(iso);
  return date ? dateFormat.format(date) : iso;
}

/** "Nov 25, 2026" for a calendar day YYYY-MM-DD. */
export function formatCalendarDay(day: string): string {
  const date = parse(`${day}T00:00:00.000Z`);
  return date ? dayFormat.format(date) : day;
}

/** "Nov 25" for a calendar day YYYY-MM-DD (chart axes, where the year is said once). */
export function formatShortCalendarDay(day: string): string {
  const date = parse(`${day}T00:00:00.000Z`);
  return date ? shortDayFormat.format(date) : day;
}
