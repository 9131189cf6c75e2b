import type { Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { enqueue } from "#app/lib/outbox/outbox.server.ts";
import {
  type OutboxMessage,
  type OutboxSend,
  PermanentSendError,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { invitationText } from "../invitation.server.ts";
import { findMeeting, hostById, type MeetingRecord } from "../meeting-store.server.ts";
import { caldavExchange, describeCaldavError } from "./caldav-http.server.ts";
import {
  CALENDAR_EVENT,
  type CalendarDeps,
  type CalendarEventPayload,
  connectionOf,
  recordCalendarError,
} from "./calendar-connections.server.ts";

// Every booking written into its host's calendar as an event (issue 34): queued in the outbox in the
// booking's, move's or cancellation's own transaction and sent by the outbox worker (its retries and
// backoff), never in the booking's transaction or its answer. The row names the meeting, not its
// text: a send makes the calendar match the meeting as it is then. A booked meeting is PUT as
// `<collection>/<uid>.ics` (the invitation's text without METHOD, the same UID and SEQUENCE); a
// cancelled one, or one whose attendee was erased, is DELETEd; a meeting moved to another host leaves
// the old host's calendar and goes into the new one's. `calendar_events` remembers where each went.

/**
 * In the transaction of a meeting's change: queues its calendar write when its host has a calendar,
 * or it was written into one before (to take it out). The number queued (0 or 1).
 */
export async function queueCalendarEvent(
  trx: Transaction<Database>,
  change: { meetingId: number; occurredAt: number; origin: string },
): Promise<number> {
  const row = await trx
    .selectFrom("meetings")
    .leftJoin("calendarConnections", "calendarConnections.userId", "meetings.hostId")
    .leftJoin("calendarEvents", "calendarEvents.meetingId", "meetings.id")
    .select(["calendarConnections.userId as connected", "calendarEvents.meetingId as written"])
    .where("meetings.id", "=", change.meetingId)
    .executeTakeFirst();
  if (!row || (row.connected === null && row.written === null)) return 0;
  await enqueue(
    trx,
    CALENDAR_EVENT,
    { meetingId: change.meetingId, origin: change.origin } satisfies CalendarEventPayload,
    new Date(change.occurredAt),
  );
  return 1;
}

/** The event's resource name in the collection: the UID, in characters every server keeps as they are. */
export function eventFileName(uid: string): string {
  return `${uid.replace(/[^A-Za-z0-9._-]/g, "-")}.ics`;
}

/** The event as the host's calendar keeps it: who is coming, how to reach them, the lead. */
export function calendarEventText(meeting: MeetingRecord, hostEmail: string, origin: string, now: number) {
  const { attendee } = meeting;
  const lines = [
    `${attendee.fullName}, ${attendee.company}`,
    `E-mail: ${attendee.email}`,
    ...(attendee.phone ? [`Phone: ${attendee.phone}`] : []),
    ...(meeting.leadId && origin
      ? [`The lead: ${origin.replace(/\/+$/, "")}/admin/leads/${meeting.leadId}`]
      : []),
  ];
  return invitationText({
    method: null,
    uid: meeting.uid,
    sequence: meeting.sequence,
    start: meeting.start,
    end: meeting.end,
    stamp: now,
    summary: `${meeting.typeName}: ${attendee.fullName} (${attendee.company})`,
    description: lines.join("\n"),
    organizer: { name: meeting.hostName, email: hostEmail },
    attendee: { name: attendee.fullName, email: attendee.email },
  });
}

const success = (status: number) => status >= 200 && status < 300;

export function createCalendarEventSender(
  deps: CalendarDeps & { publicUrl?: string; fallbackAddress: string },
): OutboxSend {
  const { db } = deps;
  const fail = async (hostId: number, what: string, error: unknown): Promise<never> => {
    const message = `${what}: ${describeCaldavError(error)}`;
    await recordCalendarError(db, hostId, message, deps.now());
    throw new Error(message);
  };

  return async (message: OutboxMessage) => {
    const payload = message.payload as Partial<CalendarEventPayload> | null;
    const meetingId = Number(payload?.meetingId);
    if (!payload || !Number.isInteger(meetingId)) throw new PermanentSendError("payload has no meeting");
    const meeting = await findMeeting(db, meetingId);
    // Deleted with its lead's erasure: its row in calendar_events went with it.
    if (!meeting) return;
    const written = await db
      .selectFrom("calendarEvents")
      .selectAll()
      .where("meetingId", "=", meetingId)
      .executeTakeFirst();
    // A cancelled meeting, or one whose attendee was erased (past ones too), is in no calendar.
    const connection =
      meeting.status === "cancelled" || meeting.erased ? null : await connectionOf(deps, meeting.hostId);

    // Out of a calendar it should no longer be in (cancelled, erased, or moved to another host).
    if (written && (!connection || written.hostId !== meeting.hostId)) {
      const old = await connectionOf(deps, written.hostId);
      if (old) {
        let status: number;
        try {
          ({ status } = await caldavExchange(
            {
              method: "DELETE",
              url: new URL(written.href),
              username: old.username,
              password: old.password,
              timeoutMs: deps.requestTimeoutMs,
            },
            deps.network,
          ));
        } catch (error) {
          return fail(written.hostId, "Removing a meeting from the calendar failed", error);
        }
        // Gone already (removed by hand) is as good as removed.
        if (!success(status) && status !== 404 && status !== 410)
          return fail(
            written.hostId,
            "Removing a meeting from the calendar failed",
            new Error(`HTTP ${status}`),
          );
      }
      await db.deleteFrom("calendarEvents").where("meetingId", "=", meetingId).execute();
    }
    if (!connection) return;

    const host = await hostById(db, meeting.hostId);
    const href =
      written && written.hostId === meeting.hostId
        ? written.href
        : new URL(eventFileName(meeting.uid), connection.url).href;
    const origin = payload.origin || deps.publicUrl || "";
    let answer: Awaited<ReturnType<typeof caldavExchange>>;
    try {
      answer = await caldavExchange(
        {
          method: "PUT",
          url: new URL(href),
          username: connection.username,
          password: connection.password,
          headers: { "content-type": "text/calendar; charset=utf-8" },
          body: calendarEventText(meeting, host?.email ?? deps.fallbackAddress, origin, deps.now()),
          timeoutMs: deps.requestTimeoutMs,
        },
        deps.network,
      );
    } catch (error) {
      return fail(meeting.hostId, "Writing a meeting into the calendar failed", error);
    }
    if (!success(answer.status))
      return fail(
        meeting.hostId,
        "Writing a meeting into the calendar failed",
        new Error(`HTTP ${answer.status} from the calendar server`),
      );
    const row = {
      hostId: meeting.hostId,
      href,
      etag: answer.etag,
      writtenAt: new Date(deps.now()).toISOString(),
    };
    await db
      .insertInto("calendarEvents")
      .values({ meetingId, ...row })
      .onConflict((conflict) => conflict.column("meetingId").doUpdateSet(row))
      .execute();
  };
}
