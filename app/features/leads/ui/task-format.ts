// How a task's due time reads (issue 35): in the staff member's zone (their availability's, else the
// back office's), "Thu, Dec 3, 9:00 AM", the year only when it is not this one's, and the zone's
// short name when it is not the back office's (format-date.ts: Europe/London).

const BACK_OFFICE_ZONE = "Europe/London";
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string, withYear: boolean, withZone: boolean): Intl.DateTimeFormat {
  const key = `${zone}|${withYear}|${withZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      weekday: "short",
      month: "short",
      day: "numeric",
      ...(withYear ? { year: "numeric" } : {}),
      hour: "numeric",
      minute: "2-digit",
      ...(withZone ? { timeZoneName: "short" } : {}),
      timeZone: zone,
    });
    if (formats.size > 200) formats.clear();
    formats.set(key, format);
  }
  return format;
}

/** "Thu, Dec 3, 9:00 AM" in `zone`; with the year when it differs from `now`'s. */
export function formatDue(iso: string, zone: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const withYear = date.getUTCFullYear() !== now.getUTCFullYear();
  return formatFor(zone, withYear, zone !== BACK_OFFICE_ZONE)
    .format(date)
    .replace(/[\u202f\u00a0]/g, " ");
}
