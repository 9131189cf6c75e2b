import { formatDate, formatDateTime, formatTime } from "#app/lib/format-date.ts";

// How a CalDAV failure is said to staff on the Availability page (issue 34): when it happened, what
// went wrong in the server's words, and what the booking page offers meanwhile.

const READING = "Reading busy times failed: ";

/** "10:42 AM" today, "Nov 21, 2026, 10:42 AM" another day (UK time, as every back-office time). */
function when(iso: string, now: number): string {
  return formatDate(iso) === formatDate(new Date(now).toISOString()) ? formatTime(iso) : formatDateTime(iso);
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** The warning for a connection's last error, or null when it has none. */
export function calendarProblem(
  status: { lastError: string | null; lastErrorAt: string | null; refreshedAt: string | null },
  own: boolean,
  now: number,
): string | null {
  if (!status.lastError) return null;
  const at = status.lastErrorAt ? ` at ${when(status.lastErrorAt, now)}` : "";
  const subject = own ? "Your calendar" : "This calendar";
  if (!status.lastError.startsWith(READING))
    return `${subject} reported a problem${at}: ${sentence(status.lastError)}`;
  // A failure described by the calendar code itself reads better without the generic wrapper.
  const reason = sentence(status.lastError.slice(READING.length).replace(/^Request failed: (?=[A-Z])/, ""));
  const meanwhile = status.refreshedAt
    ? `Times are offered from what was read at ${when(status.refreshedAt, now)}.`
    : `Nothing has been read from it yet: times are offered from ${own ? "your" : "the"} hours and meetings alone.`;
  return `${subject} could not be read${at}: ${reason} ${meanwhile}`;
}
