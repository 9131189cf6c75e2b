import type { Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { queueCalendarEvent } from "./caldav/calendar-events.server.ts";
import { cancelMeetingIn, type MeetingChangeHook } from "./meeting-store.server.ts";

// A person's meetings when they are erased (issue 34; UK GDPR article 17) or their lead is anonymised
// by the retention policy, in that transaction (all of it or nothing), the way leads are anonymised
// (leads/lead-retention.server.ts): the meeting's row stays, with its type, host, times, status and
// outcome, so the Meetings page and the hosts' counts keep it; what names or reaches the person goes
// (name, e-mail, company, phone) and `attendee_erased_at` is set.
//
// - Their meetings still to come are cancelled first, through the cancellation's own path (the host's
//   time is free again, `onCancelled` queues what follows a cancellation), but no e-mail goes to them:
//   the caller's hook queues none, and the e-mail sender sends nothing about an erased attendee.
// - Every one of their meetings that was written into a host's calendar, past ones included, is
//   removed from it by the calendar's outbox job (the job removes an erased meeting's event).

type Trx = Transaction<Database>;

export type MeetingErasure = {
  /** The person's leads (their meetings hang off them), found before the leads go. */
  leadIds: readonly number[];
  /** Their e-mail: meetings whose lead is gone already are matched on it (trimmed, case-folded). */
  email?: string;
  now: number;
  /** The leads are being deleted (an erasure): the meetings stop pointing at them. */
  detachLeads?: boolean;
};

/** Cancels the person's future meetings and clears their data from all of them. How many of each. */
export async function eraseMeetingAttendee(
  trx: Trx,
  { leadIds, email, now, detachLeads = false }: MeetingErasure,
  onCancelled: MeetingChangeHook,
): Promise<{ cancelled: number; scrubbed: number }> {
  const key = email?.trim().toLowerCase();
  if (leadIds.length === 0 && !key) return { cancelled: 0, scrubbed: 0 };
  const meetings = await trx
    .selectFrom("meetings")
    .select(["id", "status", "startAt"])
    .where((eb) =>
      eb.or([
        ...(leadIds.length > 0 ? [eb("leadId", "in", [...leadIds])] : []),
        ...(key ? [eb(eb.fn("lower", [eb.fn("trim", ["email"])]), "=", key)] : []),
      ]),
    )
    .where("attendeeErasedAt", "is", null)
    .orderBy("id")
    .execute();
  if (meetings.length === 0) return { cancelled: 0, scrubbed: 0 };
  const ids = meetings.map((meeting) => meeting.id);
  const nowIso = new Date(now).toISOString();
  let cancelled = 0;
  for (const meeting of meetings)
    if (meeting.status === "booked" && meeting.startAt > nowIso)
      if (await cancelMeetingIn(trx, meeting.id, now, onCancelled)) cancelled++;
  await trx
    .updateTable("meetings")
    .set({
      fullName: "",
      email: "",
      company: "",
      phone: null,
      attendeeErasedAt: nowIso,
      updatedAt: nowIso,
      ...(detachLeads ? { leadId: null } : {}),
    })
    .where("id", "in", ids)
    .execute();
  // Out of the hosts' calendars: queued only for a meeting written into one (or whose host has one).
  for (const id of ids) await queueCalendarEvent(trx, { meetingId: id, occurredAt: now, origin: "" });
  return { cancelled, scrubbed: ids.length };
}
