import { isTimeZone } from "#app/lib/time-zones.ts";
import { DEFAULT_TIME_ZONE } from "./booking-profile.ts";
import { findMeetingType, findSlots, type MeetingType } from "./meeting-store.server.ts";
import type { MeetingServices } from "./meetings-context.server.ts";
import { groupByDay, type SlotDay } from "./slot-labels.ts";
import { slotQueryRefusal } from "./slot-query.server.ts";

// What the booking pages show (issue 34): the next five days with open times of a meeting type, in
// the visitor's zone (chosen in the page's select; Europe/London until they choose).

const DAYS_SHOWN = 5;
const DAYS_SEARCHED = 21;
const DAY_MS = 86_400_000;

/** The zone a request asks for (`?tz=`), when it is a real one. */
export function requestedZone(url: URL): string {
  const zone = url.searchParams.get("tz");
  return zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

/**
 * The days with open times the page lists, counted against the address's slot queries like the
 * API's: when it is over its limit, no days and the message (the page answers 429).
 */
export async function bookingDays(
  services: Pick<MeetingServices, "database" | "busyTimes" | "now" | "slotQueries">,
  type: MeetingType,
  zone: string,
  clientAddress: string,
): Promise<{ days: SlotDay[]; limited: { message: string; headers: Record<string, string> } | null }> {
  const refused = await slotQueryRefusal(services, clientAddress);
  if (refused)
    return {
      days: [],
      limited: { message: (refused.body as { message: string }).message, headers: refused.headers ?? {} },
    };
  const now = services.now();
  const { slots } = await findSlots(
    services.database.db,
    type,
    { from: now, to: now + DAYS_SEARCHED * DAY_MS, now },
    services.busyTimes,
  );
  return { days: groupByDay(slots, zone, DAYS_SHOWN), limited: null };
}

export async function activeType(services: Pick<MeetingServices, "database">, slug: string) {
  const type = await findMeetingType(services.database.db, slug);
  return type?.active ? type : null;
}
