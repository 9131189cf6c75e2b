import type { AppDatabase } from "#app/db/database.server.ts";
import { createLeadService } from "#app/features/leads/lead-service.server.ts";
import { queueCalendarEvent } from "#app/features/meetings/caldav/calendar-events.server.ts";
import type { CalendarService } from "#app/features/meetings/caldav/calendar-service.server.ts";
import { queueMeetingEmails } from "#app/features/meetings/meeting-email.server.ts";
import type { MeetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { createMeetingLeads } from "../meeting-leads.server.ts";

// Test-only: the meetings' services as the composition root wires them, on a test's database and
// clock: leads stored through the real lead service (no rate limit, no time trap, no sales e-mail),
// the meeting e-mails queued, and with `calendars` the hosts' CalDAV calendars read and written.

export function testMeetingServices(
  database: AppDatabase,
  {
    secret,
    now,
    publicUrl,
    calendars,
  }: { secret: string; now: () => number; publicUrl?: string; calendars?: CalendarService },
): MeetingServices {
  const leads = createLeadService({
    db: database.db,
    secret,
    rateLimiter: createRateLimiter(database.db, { limit: 0, windowMs: 600_000 }),
    notify: false,
    timeTrap: false,
  });
  return {
    database,
    slotQueries: createRateLimiter(database.db, { limit: 0, windowMs: 600_000 }),
    busyTimes: calendars?.busyTimes ?? (async () => []),
    ...(calendars ? { busyTimesBeforeBooking: calendars.busyTimesBeforeBooking, calendars } : {}),
    now,
    secret,
    publicUrl,
    leads: createMeetingLeads(database.db, leads),
    onMeetingChange: calendars
      ? async (trx, change) =>
          (await queueMeetingEmails(trx, change)) + (await queueCalendarEvent(trx, change))
      : (trx, change) => queueMeetingEmails(trx, change),
    meetingChanged: () => {},
  };
}
