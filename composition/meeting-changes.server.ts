import type { Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type LeadMeetingChange, recordLeadMeeting } from "#app/features/leads/lead-meetings.server.ts";
import type { LeadChangeHook } from "#app/features/leads/lead-service.server.ts";
import { queueMeetingEmails } from "#app/features/meetings/meeting-email.server.ts";
import { findStaffMeeting, type MeetingOutcomeHook } from "#app/features/meetings/meeting-staff.server.ts";
import type { MeetingChange, MeetingChangeHook } from "#app/features/meetings/meeting-store.server.ts";
import { queueEventData } from "#app/features/webhooks/webhook-store.server.ts";
import type { NotificationProducers } from "./notifications.server.ts";

// What follows a meeting's change (issue 34), in the change's own transaction so it is stored with
// it or not at all: the e-mails, the lead's timeline (and, at booking, the host as the owner of a
// lead that has none, with its lead.updated webhooks), and the meeting.* webhooks. Meetings, leads
// and webhooks know nothing of each other; they meet here.

/** The webhook body's `data.meeting`: the meeting and its lead's id, never the attendee's details. */
export type MeetingWebhookData = {
  id: number;
  type: string;
  typeName: string;
  start: string;
  end: string;
  status: string;
  hostName: string;
  leadId: number | null;
  previousStart?: string;
};

/** The meeting.* webhooks of a change (the meeting and its lead's id, no attendee details). */
async function queueMeetingWebhook(
  trx: Transaction<Database>,
  meeting: NonNullable<Awaited<ReturnType<typeof findStaffMeeting>>>,
  event: MeetingChange["event"],
  occurredAt: Date,
  previousStart: string | null,
) {
  const data: MeetingWebhookData = {
    id: meeting.id,
    type: meeting.type,
    typeName: meeting.typeName,
    start: meeting.start,
    end: meeting.end,
    status: meeting.status,
    hostName: meeting.hostName,
    leadId: meeting.leadId,
    ...(previousStart ? { previousStart } : {}),
  };
  await queueEventData(trx, { type: `meeting.${event}`, data: { meeting: data }, occurredAt });
}

/**
 * A meeting cancelled because its attendee is erased, or their lead anonymised (meeting-privacy):
 * its meeting.cancelled webhooks, and no e-mail (nothing goes to an erased person; the host sees it
 * leave their calendar and the Meetings page) nor entry on a lead that is going.
 */
export const onMeetingErased: MeetingChangeHook = async (trx, change) => {
  const meeting = await findStaffMeeting(trx, change.meetingId);
  if (meeting) await queueMeetingWebhook(trx, meeting, change.event, new Date(change.occurredAt), null);
};

export function createMeetingChangeHooks({
  onLeadChange,
  notifications,
}: {
  onLeadChange?: LeadChangeHook;
  /** Issue 35: the host hears of a booking, a move or a cancellation in the back office's bell. */
  notifications?: Pick<NotificationProducers, "meetingChanged">;
}) {
  async function onLead(
    trx: Transaction<Database>,
    meeting: NonNullable<Awaited<ReturnType<typeof findStaffMeeting>>>,
    change: LeadMeetingChange,
    actor: { id: number; username: string } | null,
    occurredAt: Date,
    previousStart: string | null,
  ) {
    if (meeting.leadId === null) return;
    const { ownerAssigned } = await recordLeadMeeting(trx, {
      leadId: meeting.leadId,
      change,
      meeting: {
        id: meeting.id,
        typeName: meeting.typeName,
        start: meeting.start,
        end: meeting.end,
        hostId: meeting.hostId,
        hostName: meeting.hostName,
        previousStart,
      },
      actor,
      now: occurredAt,
    });
    if (ownerAssigned)
      await onLeadChange?.(trx, {
        type: "lead.updated",
        leadId: meeting.leadId,
        occurredAt,
        assigned: { ownerId: meeting.hostId, by: null },
      });
  }

  /** A booking, a move or a cancellation (booking-http.server.ts, through MeetingServices). */
  async function onMeetingChange(trx: Transaction<Database>, change: MeetingChange & { origin: string }) {
    await queueMeetingEmails(trx, change);
    const meeting = await findStaffMeeting(trx, change.meetingId);
    if (!meeting) return;
    const occurredAt = new Date(change.occurredAt);
    const previousStart =
      change.event === "rescheduled" && change.previousStart !== undefined
        ? new Date(change.previousStart).toISOString()
        : null;
    await queueMeetingWebhook(trx, meeting, change.event, occurredAt, previousStart);
    await notifications?.meetingChanged(trx, meeting, change.event, occurredAt);
    // After the meeting's own event: a lead.updated for the owner it gave the lead follows it.
    await onLead(trx, meeting, change.event, null, occurredAt, previousStart);
  }

  /** An outcome staff recorded (the Meetings page and PATCH /api/admin/meetings/:id). */
  const onMeetingOutcome: MeetingOutcomeHook = async (trx, change) => {
    const meeting = await findStaffMeeting(trx, change.meetingId);
    if (!meeting) return;
    await onLead(trx, meeting, change.outcome, change.actor, new Date(change.occurredAt), null);
  };

  return { onMeetingChange, onMeetingOutcome };
}
