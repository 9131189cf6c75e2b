import type { Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { isAssignable } from "./lead-admin.server.ts";
import { type Actor, recordLeadEvent } from "./lead-events.server.ts";

// Issue 34: what a lead's meetings leave on it. The composition root calls this in the transaction
// that books, moves or cancels a meeting, or records its outcome (the meetings feature knows nothing
// of leads): a timeline entry with the meeting's time, and at booking an unowned lead gets the host as
// its owner (when the host's role works on leads), recorded as any owner change is.

export const LEAD_MEETING_CHANGES = ["booked", "rescheduled", "cancelled", "held", "no_show"] as const;
export type LeadMeetingChange = (typeof LEAD_MEETING_CHANGES)[number];

export type LeadMeeting = {
  id: number;
  typeName: string;
  /** ISO 8601 instants. */
  start: string;
  end: string;
  hostId: number;
  hostName: string;
  /** Where a moved meeting was before. */
  previousStart?: string | null;
};

/**
 * Records `change` of `meeting` on lead `leadId` (nothing when the lead is gone or anonymised).
 * `ownerAssigned`: the lead had no owner at booking and now has the host (a lead.updated to send).
 */
export async function recordLeadMeeting(
  trx: Transaction<Database>,
  input: { leadId: number; change: LeadMeetingChange; meeting: LeadMeeting; actor: Actor | null; now: Date },
): Promise<{ recorded: boolean; ownerAssigned: boolean }> {
  const { leadId, meeting, now } = input;
  const lead = await trx
    .selectFrom("leads")
    .select(["id", "ownerId"])
    .where("id", "=", leadId)
    .where("anonymisedAt", "is", null)
    .executeTakeFirst();
  if (!lead) return { recorded: false, ownerAssigned: false };
  await recordLeadEvent(trx, {
    leadId,
    type: `meeting_${input.change}`,
    actor: input.actor,
    detail: {
      meetingId: meeting.id,
      meetingType: meeting.typeName,
      start: meeting.start,
      end: meeting.end,
      host: meeting.hostName,
      ...(meeting.previousStart ? { previousStart: meeting.previousStart } : {}),
    },
    now,
  });
  if (input.change !== "booked" || lead.ownerId !== null) return { recorded: true, ownerAssigned: false };
  // A host whose role no longer works on leads (moved to marketing, still on a meeting type) hosts
  // the meeting but is not given the lead: an owner is told its name.
  if (!(await isAssignable(trx, meeting.hostId))) return { recorded: true, ownerAssigned: false };
  // Only while it still has none: an owner set meanwhile by staff stays.
  const assigned = await trx
    .updateTable("leads")
    .set({ ownerId: meeting.hostId, updatedAt: now.toISOString() })
    .where("id", "=", leadId)
    .where("ownerId", "is", null)
    .executeTakeFirst();
  if (Number(assigned.numUpdatedRows) === 0) return { recorded: true, ownerAssigned: false };
  await recordLeadEvent(trx, {
    leadId,
    type: "owner_changed",
    actor: null,
    detail: { from: null, to: meeting.hostName, reason: "meeting" },
    now,
  });
  return { recorded: true, ownerAssigned: true };
}
