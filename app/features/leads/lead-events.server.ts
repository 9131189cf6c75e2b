import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

// What happened to a lead besides status changes (lead_status_changes) and notes (lead_notes): the
// spam filter holding it, staff marking it as spam or not, owner changes, notification outcomes.
// The timeline (lead-timeline.server.ts) reads all three, newest first.

export type LeadEventType =
  | "spam_held"
  | "marked_spam"
  | "marked_not_spam"
  | "owner_changed"
  | "notification_sent"
  | "notification_failed"
  /** A person erased on request wrote again through the site's forms (new consent). */
  | "returned_after_erasure"
  /** A next step set or replaced (issue 23): `{ text, due }`. */
  | "next_step_set"
  /** The next step cleared: `{ text }`. */
  | "next_step_cleared"
  /** Issue 35: a task added from the composer or the API: `{ taskId, text, due, assignee }`. */
  | "task_added"
  /** A task marked done, or open again: `{ taskId, text }`. */
  | "task_done"
  | "task_reopened"
  /**
   * A task's words, due time or assignee changed (`PATCH /api/admin/tasks/:id`): detail `{ taskId,
   * text, changes: [{ field: "text" | "due" | "assignee", from, to }] }`, only the fields that changed.
   */
  | "task_changed"
  /** Staff added it by hand (issue 23): detail `{ source }`. */
  | "added_by_staff"
  /** A CSV import created it: detail `{ importId, fileName }`. */
  | "imported"
  /** A CSV import merged a row into it: detail `{ importId, fileName, fields }` (the fields it changed). */
  | "merged_from_import"
  /** "Undo this import" put its fields back: detail `{ importId, fileName }`. */
  | "import_reverted"
  /**
   * Issue 34, the lead's meetings: booked, moved, cancelled, and the outcome staff recorded. Detail
   * `{ meetingId, meetingType, start, end, host }`, and `previousStart` for a move.
   */
  | "meeting_booked"
  | "meeting_rescheduled"
  | "meeting_cancelled"
  | "meeting_held"
  | "meeting_no_show"
  /** Issue 35: staff corrected what the person sent: detail `{ changes: [{ field, from, to }] }`. */
  | "contact_changed";

export type Actor = { id: number; username: string };

type Db = Kysely<Database> | Transaction<Database>;

export async function recordLeadEvent(
  db: Db,
  event: {
    leadId: number;
    type: LeadEventType;
    /** Null for the product itself (the spam filter, the mailer). */
    actor: Actor | null;
    detail?: Record<string, unknown>;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto("leadEvents")
    .values({
      leadId: event.leadId,
      type: event.type,
      actorUserId: event.actor?.id ?? null,
      actorName: event.actor?.username ?? null,
      detail: event.detail ? JSON.stringify(event.detail) : null,
      createdAt: event.now.toISOString(),
    })
    .execute();
}
