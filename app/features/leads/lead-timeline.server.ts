import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { loggedActivitiesOf, type TaskChange } from "./lead-activities.server.ts";
import type { LeadEventType } from "./lead-events.server.ts";
import type { LeadMeetingChange } from "./lead-meetings.server.ts";
import type { Lead } from "./lead-repository.server.ts";
import { isStaffSource, STAFF_SOURCES } from "./lead-sources.ts";

// A lead's timeline, newest first: submitted (with its source), notification sent or failed, status
// changes, owner changes, notes, spam verdicts and their reversal, each with who and when. It reads
// the three places these live (lead_status_changes, lead_notes, lead_events) and merges them.

export type TimelineEntry =
  | { kind: "submitted"; id: string; at: string; actor: null; source: string; sourcePage: string | null }
  | { kind: "status"; id: string; at: string; actor: string; from: string; to: string }
  | { kind: "note"; id: string; at: string; actor: string; body: string }
  | {
      kind: "owner_changed";
      id: string;
      at: string;
      actor: string | null;
      from: string | null;
      to: string | null;
      /** "meeting": the host of the meeting booked while the lead had no owner. */
      reason: "meeting" | null;
    }
  /** Issue 34: a meeting booked, moved, cancelled, held or missed; its time, type and host. */
  | {
      kind: "meeting";
      change: LeadMeetingChange;
      id: string;
      at: string;
      actor: string | null;
      meetingId: number;
      meetingType: string;
      start: string;
      end: string;
      host: string;
      previousStart: string | null;
    }
  | { kind: "spam_held"; id: string; at: string; actor: null; score: number; reasons: string[] }
  | { kind: "marked_spam" | "marked_not_spam"; id: string; at: string; actor: string | null }
  | { kind: "notification_sent"; id: string; at: string; actor: null }
  | { kind: "returned_after_erasure"; id: string; at: string; actor: null; erasedAt: string }
  /**
   * The lead's next step (its earliest open task) set or marked done: since the tasks' permission
   * rule, also which task and whose (null on entries from before).
   */
  | {
      kind: "next_step_set";
      id: string;
      at: string;
      actor: string | null;
      text: string;
      due: string;
      taskId: number | null;
      assignee: string | null;
    }
  | {
      kind: "next_step_cleared";
      id: string;
      at: string;
      actor: string | null;
      text: string;
      taskId: number | null;
      assignee: string | null;
    }
  /** Issue 35: staff corrected fields the person sent; each with what it was and what it became. */
  | {
      kind: "contact_changed";
      id: string;
      at: string;
      actor: string | null;
      changes: { field: string; from: string | null; to: string | null }[];
    }
  /** Issue 35: a logged call (its outcome and minutes) and a logged e-mail (sent or received). */
  | {
      kind: "call";
      id: string;
      at: string;
      actor: string;
      outcome: string | null;
      durationMinutes: number | null;
      body: string;
    }
  | { kind: "email"; id: string; at: string; actor: string; direction: string | null; body: string }
  /** A task added (what, due instant, assignee), done, or open again. */
  | {
      kind: "task_added";
      id: string;
      at: string;
      actor: string | null;
      taskId: number;
      text: string;
      due: string;
      assignee: string | null;
    }
  /** A task's words, due time or assignee changed: only what changed, each from and to. */
  | {
      kind: "task_changed";
      id: string;
      at: string;
      actor: string | null;
      taskId: number;
      /** What the task says after the change. */
      text: string;
      changes: TaskChange[];
    }
  | {
      kind: "task_done" | "task_reopened";
      id: string;
      at: string;
      actor: string | null;
      taskId: number;
      text: string;
    }
  /** Issue 23: added by hand (`source` is the label), created or merged by an import, or reverted by its undo. */
  | { kind: "added_by_staff"; id: string; at: string; actor: string | null; source: string }
  | {
      kind: "imported" | "merged_from_import" | "import_reverted";
      id: string;
      at: string;
      actor: string | null;
      fileName: string;
      fields: string[];
      /** The owner an import gave the lead, if any. */
      owner: string | null;
    }
  | {
      kind: "notification_failed";
      id: string;
      at: string;
      actor: null;
      attempt: number;
      error: string;
      final: boolean;
    };

function parseDetail(raw: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw ?? "{}");
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

export async function leadTimeline(
  db: Kysely<Database>,
  lead: Pick<Lead, "id" | "createdAt" | "source" | "sourcePage">,
): Promise<TimelineEntry[]> {
  const [statuses, notes, events, activities] = await Promise.all([
    db
      .selectFrom("leadStatusChanges")
      .select(["id", "fromStatus", "toStatus", "changedByUsername", "changedAt"])
      .where("leadId", "=", lead.id)
      .execute(),
    db
      .selectFrom("leadNotes")
      .select(["id", "body", "authorUsername", "createdAt"])
      .where("leadId", "=", lead.id)
      .execute(),
    db
      .selectFrom("leadEvents")
      .select(["id", "type", "actorName", "detail", "createdAt"])
      .where("leadId", "=", lead.id)
      .execute(),
    loggedActivitiesOf(db, lead.id),
  ]);
  const entries: (TimelineEntry & { order: number })[] = [
    {
      kind: "submitted",
      id: "submitted",
      at: lead.createdAt,
      actor: null,
      source: lead.source,
      sourcePage: lead.sourcePage,
      order: 0,
    },
  ];
  for (const row of statuses) {
    entries.push({
      kind: "status",
      id: `status-${row.id}`,
      at: row.changedAt,
      actor: row.changedByUsername,
      from: row.fromStatus,
      to: row.toStatus,
      order: Number(row.id),
    });
  }
  for (const row of notes) {
    entries.push({
      kind: "note",
      id: `note-${row.id}`,
      at: row.createdAt,
      actor: row.authorUsername,
      body: row.body,
      order: Number(row.id),
    });
  }
  for (const row of activities) {
    const base = { id: `activity-${row.id}`, at: row.createdAt, actor: row.authorUsername, body: row.body };
    if (row.kind === "call")
      entries.push({
        ...base,
        kind: "call",
        outcome: row.outcome,
        durationMinutes: row.durationMinutes === null ? null : Number(row.durationMinutes),
        order: Number(row.id),
      });
    else entries.push({ ...base, kind: "email", direction: row.direction, order: Number(row.id) });
  }
  for (const row of events) {
    const detail = parseDetail(row.detail);
    const base = { id: `event-${row.id}`, at: row.createdAt, order: Number(row.id) };
    switch (row.type as LeadEventType) {
      case "owner_changed":
        entries.push({
          ...base,
          kind: "owner_changed",
          actor: row.actorName,
          from: text(detail.from),
          to: text(detail.to),
          reason: detail.reason === "meeting" ? "meeting" : null,
        });
        break;
      case "meeting_booked":
      case "meeting_rescheduled":
      case "meeting_cancelled":
      case "meeting_held":
      case "meeting_no_show":
        entries.push({
          ...base,
          kind: "meeting",
          change: row.type.slice("meeting_".length) as LeadMeetingChange,
          actor: row.actorName,
          meetingId: Number(detail.meetingId) || 0,
          meetingType: text(detail.meetingType) ?? "Meeting",
          start: text(detail.start) ?? "",
          end: text(detail.end) ?? "",
          host: text(detail.host) ?? "",
          previousStart: text(detail.previousStart),
        });
        break;
      case "spam_held":
        entries.push({
          ...base,
          kind: "spam_held",
          actor: null,
          score: Number(detail.score) || 0,
          reasons: Array.isArray(detail.reasons)
            ? detail.reasons.filter((r): r is string => typeof r === "string")
            : [],
        });
        break;
      case "marked_spam":
      case "marked_not_spam":
        entries.push({ ...base, kind: row.type as "marked_spam" | "marked_not_spam", actor: row.actorName });
        break;
      case "notification_sent":
        entries.push({ ...base, kind: "notification_sent", actor: null });
        break;
      case "returned_after_erasure":
        entries.push({
          ...base,
          kind: "returned_after_erasure",
          actor: null,
          erasedAt: text(detail.erasedAt) ?? "",
        });
        break;
      case "next_step_set":
        entries.push({
          ...base,
          kind: "next_step_set",
          actor: row.actorName,
          text: text(detail.text) ?? "",
          due: text(detail.due) ?? "",
          taskId: Number(detail.taskId) || null,
          assignee: text(detail.assignee),
        });
        break;
      case "next_step_cleared":
        entries.push({
          ...base,
          kind: "next_step_cleared",
          actor: row.actorName,
          text: text(detail.text) ?? "",
          taskId: Number(detail.taskId) || null,
          assignee: text(detail.assignee),
        });
        break;
      case "contact_changed":
        entries.push({
          ...base,
          kind: "contact_changed",
          actor: row.actorName,
          changes: Array.isArray(detail.changes)
            ? detail.changes.flatMap((change: unknown) => {
                const { field, from, to } = (change ?? {}) as Record<string, unknown>;
                return typeof field === "string" ? [{ field, from: text(from), to: text(to) }] : [];
              })
            : [],
        });
        break;
      case "task_added":
        entries.push({
          ...base,
          kind: "task_added",
          actor: row.actorName,
          taskId: Number(detail.taskId) || 0,
          text: text(detail.text) ?? "",
          due: text(detail.due) ?? "",
          assignee: text(detail.assignee),
        });
        break;
      case "task_changed":
        entries.push({
          ...base,
          kind: "task_changed",
          actor: row.actorName,
          taskId: Number(detail.taskId) || 0,
          text: text(detail.text) ?? "",
          changes: Array.isArray(detail.changes)
            ? detail.changes.flatMap((change: unknown) => {
                const { field, from, to } = (change ?? {}) as Record<string, unknown>;
                return field === "text" || field === "due" || field === "assignee"
                  ? [{ field, from: text(from), to: text(to) }]
                  : [];
              })
            : [],
        });
        break;
      case "task_done":
      case "task_reopened":
        entries.push({
          ...base,
          kind: row.type as "task_done" | "task_reopened",
          actor: row.actorName,
          taskId: Number(detail.taskId) || 0,
          text: text(detail.text) ?? "",
        });
        break;
      case "added_by_staff":
        entries.push({
          ...base,
          kind: "added_by_staff",
          actor: row.actorName,
          source: STAFF_SOURCES[isStaffSource(detail.source) ? detail.source : "other"],
        });
        break;
      case "imported":
      case "merged_from_import":
      case "import_reverted":
        entries.push({
          ...base,
          kind: row.type as "imported" | "merged_from_import" | "import_reverted",
          actor: row.actorName,
          fileName: text(detail.fileName) ?? "a file",
          owner: text(detail.owner),
          fields: Array.isArray(detail.fields)
            ? detail.fields.filter((field): field is string => typeof field === "string")
            : [],
        });
        break;
      case "notification_failed":
        entries.push({
          ...base,
          kind: "notification_failed",
          actor: null,
          attempt: Number(detail.attempt) || 0,
          error: text(detail.error) ?? "unknown error",
          final: detail.final === true,
        });
        break;
    }
  }
  // Newest first; within one instant the later record first, and "submitted" always last.
  entries.sort((a, b) => {
    if (a.kind === "submitted" || b.kind === "submitted") return a.kind === "submitted" ? 1 : -1;
    return b.at.localeCompare(a.at) || b.order - a.order;
  });
  return entries.map(({ order: _order, ...entry }) => entry as TimelineEntry);
}
