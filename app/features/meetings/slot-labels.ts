// How times read on the booking pages (issue 34), in the visitor's zone: a day "Tuesday 8 December"
// and a time "10:30", which a screen reader hears together as "Tuesday 8 December, 10:30".

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function cached(cache: Map<string, Intl.DateTimeFormat>, zone: string, options: Intl.DateTimeFormatOptions) {
  let format = cache.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { timeZone: zone, ...options });
    if (cache.size > 100) cache.clear();
    cache.set(zone, format);
  }
  return format;
}

export const dayLabel = (instant: number, zone: string) =>
  cached(dayFormats, zone, { weekday: "long", day: "numeric", month: "long" }).format(instant);

export const timeLabel = (instant: number, zone: string) =>
  cached(timeFormats, zone, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(instant);

/** Zones offered in the booking pages' select; the visitor's own is added when it is not one of them. */
export const COMMON_TIME_ZONES = [
  ["Europe/London", "London (UK time)"],
  ["Europe/Dublin", "Dublin"],
  ["Europe/Paris", "Paris, Berlin, Madrid (Central European)"],
  ["Europe/Athens", "Athens, Helsinki (Eastern European)"],
  ["Asia/Dubai", "Dubai"],
  ["Asia/Kolkata", "India"],
  ["Asia/Singapore", "Singapore"],
  ["Australia/Sydney", "Sydney"],
  ["America/New_York", "New York (US Eastern)"],
  ["America/Chicago", "Chicago (US Central)"],
  ["America/Denver", "Denver (US Mountain)"],
  ["America/Los_Angeles", "Los Angeles (US Pacific)"],
  ["UTC", "UTC"],
] as const;

export type SlotDay = { label: string; slots: { start: string; time: string }[] };

/** Slots grouped by their day in `zone`, the first `days` days that have any. */
export function groupByDay(slots: readonly { start: number }[], zone: string, days: number): SlotDay[] {
  const grouped: SlotDay[] = [];
  for (const slot of slots) {
    const label = dayLabel(slot.start, zone);
    let day = grouped.at(-1);
    if (day?.label !== label) {
      if (grouped.length === days) break;
      day = { label, slots: [] };
      grouped.push(day);
    }
    day.slots.push({ start: new Date(slot.start).toISOString(), time: timeLabel(slot.start, zone) });
  }
  return grouped;
}
