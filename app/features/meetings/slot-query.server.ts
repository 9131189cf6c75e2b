import { tooManyRequestsMessage } from "#app/lib/rate-limit.server.ts";
import { addDays, dateIn, isTimeZone, parseDate, toInstant } from "#app/lib/time-zones.ts";
import { DEFAULT_TIME_ZONE } from "./booking-profile.ts";
import { MEETING_TYPE_SLUG } from "./booking-types.ts";
import { findMeetingType, findSlots } from "./meeting-store.server.ts";
import type { MeetingServices } from "./meetings-context.server.ts";

// GET /api/meetings/slots?type=demo&from=YYYY-MM-DD&days=N (issue 34): the open times of a meeting
// type, as instants in UTC, no host named. `from` and the days are calendar days in `timeZone` (the
// visitor's; Europe/London when not given), so "the next five days" are the visitor's days.

export const MAX_SLOT_DAYS = 31;
/** Slot queries allowed per address for each lead the forms allow (LEAD_RATE_LIMIT) in the same window. */
export const SLOT_QUERIES_PER_LEAD = 6;
export const DEFAULT_SLOT_DAYS = 7;

export const SLOT_QUERY_MESSAGES = {
  type: "Unknown meeting type: use demo, investor or another meeting type's link name.",
  from: "from must be a date, YYYY-MM-DD.",
  days: `days must be a whole number from 1 to ${MAX_SLOT_DAYS}.`,
  timeZone: "timeZone must be a time zone such as Europe/London or America/New_York.",
} as const;

export type SlotQueryAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/** The 429 answer, with when to try again. */
export function tooMany(retryAfterSeconds: number): SlotQueryAnswer {
  return {
    status: 429,
    body: { message: tooManyRequestsMessage(retryAfterSeconds) },
    headers: { "Retry-After": String(retryAfterSeconds) },
  };
}

/**
 * One more query for open times from `clientAddress` (the API's and the booking pages' alike):
 * null when it may go on, else the 429 answer.
 */
export async function slotQueryRefusal(
  services: Pick<MeetingServices, "slotQueries">,
  clientAddress: string,
): Promise<SlotQueryAnswer | null> {
  const decision = await services.slotQueries.hit(`slots:${clientAddress}`);
  return decision.allowed ? null : tooMany(decision.retryAfterSeconds);
}

/** The answer to one slot query from `clientAddress`. */
export async function answerSlotQuery(
  query: URLSearchParams,
  clientAddress: string,
  services: Pick<MeetingServices, "database" | "slotQueries" | "busyTimes" | "now">,
): Promise<SlotQueryAnswer> {
  const bad = (message: string): SlotQueryAnswer => ({ status: 400, body: { message } });
  const slug = query.get("type") ?? "";
  if (!MEETING_TYPE_SLUG.test(slug)) return bad(SLOT_QUERY_MESSAGES.type);
  const timeZone = query.get("timeZone") ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(timeZone)) return bad(SLOT_QUERY_MESSAGES.timeZone);
  const daysText = query.get("days") ?? String(DEFAULT_SLOT_DAYS);
  const days = /^\d{1,2}$/.test(daysText) ? Number(daysText) : Number.NaN;
  if (!(days >= 1 && days <= MAX_SLOT_DAYS)) return bad(SLOT_QUERY_MESSAGES.days);
  const now = services.now();
  const fromText = query.get("from") ?? dateIn(now, timeZone);
  const from = parseDate(fromText);
  if (!from) return bad(SLOT_QUERY_MESSAGES.from);

  const refused = await slotQueryRefusal(services, clientAddress);
  if (refused) return refused;

  const type = await findMeetingType(services.database.db, slug);
  if (!type) return bad(SLOT_QUERY_MESSAGES.type);
  if (!type.active)
    return { status: 404, body: { message: "This meeting type is not offered at the moment." } };
  // Midnight of the first and the day after the last, in the visitor's zone (a zone whose midnight
  // the clocks skip starts at the first minute that exists).
  const midnight = (date: string) => {
    const day = parseDate(date);
    if (!day) return now;
    return (
      toInstant({ ...day, hour: 0, minute: 0 }, timeZone) ??
      toInstant({ ...day, hour: 1, minute: 0 }, timeZone) ??
      now
    );
  };
  const start = midnight(fromText);
  const end = midnight(addDays(fromText, days));
  const { slots } = await findSlots(
    services.database.db,
    type,
    { from: Math.max(start, now), to: end, now },
    services.busyTimes,
  );
  return {
    status: 200,
    body: {
      timeZone,
      slots: slots.map((slot) => ({
        start: new Date(slot.start).toISOString(),
        end: new Date(slot.end).toISOString(),
      })),
    },
  };
}
