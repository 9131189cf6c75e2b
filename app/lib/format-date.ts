// How the back office shows a date and time (leads, staff sign-ins, audits, API keys), on the server
// and in the browser alike.

// NOTE: an explicit zone, so the server's render and the browser's agree whatever their clocks say.
const dateTimeFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "Europe/London",
});

/** "Nov 21, 2026, 10:05 AM" (UK time). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // ICU versions differ on the space before AM/PM (newer ones use U+202F): one plain space everywhere.
  return dateTimeFormat.format(date).replace(/[\u202f\u00a0]/g, " ");
}
