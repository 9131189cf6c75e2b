import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import {
  FALLEN_DUE_LIMIT,
  type FallenDuePosition,
  tasksFallenDue,
} from "#app/features/leads/lead-activities.server.ts";
import {
  type LeadDetails,
  type NotificationKind,
  notify,
} from "#app/features/notifications/notification-store.server.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { rolesWith } from "#app/lib/permissions.ts";

// Issue 35, the producers of the bell's notifications (ADR 043). Leads, meetings, watches and the
// notifications know nothing of each other; they meet here, each producer called inside the
// transaction of the change it reports, so a notification is stored with its change or not at all.
// Each names its event in a dedupe key: the same event never notifies a person twice.

type Db = Kysely<Database> | Transaction<Database>;

/**
 * What the bell and its e-mails add to a notification when they are read (the store asks only for a
 * reader whose role reads leads): the lead's name and company, and what a due task says, of leads
 * not anonymised (anonymising deletes a lead's tasks; erasing, the lead).
 */
export function createLeadDetails(db: Kysely<Database>): LeadDetails {
  return {
    async leadLabels(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("leads")
        .select(["id", "fullName", "company"])
        .where("id", "in", ids)
        .where("anonymisedAt", "is", null)
        .execute();
      return new Map(
        rows.map((row) => [Number(row.id), row.company ? `${row.fullName}, ${row.company}` : row.fullName]),
      );
    },
    async taskTexts(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("leadActivities")
        .innerJoin("leads", "leads.id", "leadActivities.leadId")
        .select(["leadActivities.id", "leadActivities.body"])
        .where("leadActivities.id", "in", ids)
        .where("leadActivities.kind", "=", "task")
        .where("leads.anonymisedAt", "is", null)
        .execute();
      return new Map(rows.map((row) => [Number(row.id), row.body]));
    },
  };
}

/** The roles that have tasks (and read the leads the tasks are on): the only ones told of them. */
const TASK_ROLES = rolesWith("tasks.own", "leads.read");

export type NotificationProducers = ReturnType<typeof createNotificationProducers>;

/** `email`: this installation sends e-mail (SMTP configured), so a person's e-mail choice applies. */
export function createNotificationProducers({ email }: { email: boolean }) {
  return {
    /**
     * A lead got an owner: its new owner hears of it, unless they took it themselves. `by` is null
     * when the product assigned it (a meeting booked with a host gives a lead without one its host).
     */
    async leadAssigned(
      trx: Db,
      change: {
        leadId: number;
        ownerId: number;
        by: { id: number; username: string } | null;
        occurredAt: Date;
      },
    ): Promise<boolean> {
      if (change.by?.id === change.ownerId) return false;
      return notify(
        trx,
        {
          userId: change.ownerId,
          kind: "lead.assigned",
          title: change.by
            ? `${change.by.username} assigned a lead to you`
            : "A lead was assigned to you with a meeting booked with you",
          link: `/admin/leads/${change.leadId}`,
          leadId: change.leadId,
          dedupeKey: `lead.assigned:${change.leadId}:${change.occurredAt.getTime()}`,
          now: change.occurredAt,
        },
        { email },
      );
    },

    /** A meeting booked, moved or cancelled (by its attendee): its host hears of it. */
    async meetingChanged(
      trx: Db,
      meeting: { id: number; typeName: string; start: string; hostId: number; leadId: number | null },
      event: "booked" | "rescheduled" | "cancelled",
      occurredAt: Date,
    ): Promise<boolean> {
      const when = formatDateTime(meeting.start);
      const title =
        event === "booked"
          ? `${meeting.typeName} booked with you for ${when}`
          : event === "rescheduled"
            ? `${meeting.typeName} moved to ${when}`
            : `${meeting.typeName} on ${when} cancelled`;
      return notify(trx, {
        userId: meeting.hostId,
        kind: `meeting.${event}` as NotificationKind,
        title,
        link: "/admin/meetings",
        leadId: meeting.leadId,
        subjectId: meeting.id,
        dedupeKey:
          event === "rescheduled"
            ? `meeting.rescheduled:${meeting.id}:${meeting.start}`
            : `meeting.${event}:${meeting.id}`,
        now: occurredAt,
      });
    },

    /** A watch opened an alert: everyone whose role uses the audits hears of it. */
    async watchAlert(
      trx: Db,
      alert: { id: number; label: string },
      watch: { id: number; url: string },
      occurredAt: Date,
    ): Promise<number> {
      const roles = rolesWith("audits.use");
      const people = await trx
        .selectFrom("users")
        .select("id")
        .where("role", "in", roles)
        .where("disabled", "=", 0)
        .execute();
      let host = watch.url;
      try {
        host = new URL(watch.url).host;
      } catch {
        // A watch's address was checked when it was added; the whole address will do.
      }
      let stored = 0;
      for (const person of people)
        if (
          await notify(trx, {
            userId: Number(person.id),
            kind: "watch.alert",
            title: `Alert on ${host}: ${alert.label}`,
            link: `/admin/watches/${watch.id}`,
            subjectId: alert.id,
            dedupeKey: `watch.alert:${alert.id}`,
            now: occurredAt,
          })
        )
          stored++;
      return stored;
    },

    /**
     * A task of the person's fell due (the due sweep, notifyFallenDueTasks); `dueAt` is part of the
     * key, so moving the task's due time notifies again. Nobody whose role has no tasks (moved to
     * marketing since it was given them, or disabled) is told. The title is the due time only: what
     * the task says is about the lead's person, so the list adds it as it reads (ADR 043).
     */
    async taskDue(
      trx: Db,
      task: { id: number; assigneeId: number; dueAt: string; leadId: number | null; link: string },
      now: Date,
    ): Promise<boolean> {
      const assignee = await trx
        .selectFrom("users")
        .select("id")
        .where("id", "=", task.assigneeId)
        .where("role", "in", TASK_ROLES)
        .where("disabled", "=", 0)
        .executeTakeFirst();
      if (!assignee) return false;
      return notify(
        trx,
        {
          userId: task.assigneeId,
          kind: "task.due",
          title: `Task due ${formatDateTime(task.dueAt)}`,
          link: task.link,
          leadId: task.leadId,
          subjectId: task.id,
          dedupeKey: `task.due:${task.id}:${task.dueAt}`,
          now,
        },
        { email },
      );
    },
  };
}

/** How far back the first sweep after a start looks: a day's due tasks, not every old one at once. */
export const TASK_DUE_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/**
 * The "task due" sweep: every open, assigned task that fell due since the last sweep notifies its
 * assignee (and e-mails them if they chose so), while their role has tasks. Each instance sweeps on its own; the dedupe key
 * (task and due time) keeps a task that two instances or two overlapping windows see to one
 * notification. A batch holds at most `limit` tasks; the position it returns (the last task's due
 * time and id after a full batch, else `until`) is where the next sweep starts, so a run of tasks
 * due at one instant longer than a batch is handed on whole. Returns that position and how many
 * notifications were stored.
 */
export async function notifyFallenDueTasks(
  db: Kysely<Database>,
  producers: NotificationProducers,
  window: { after: FallenDuePosition; until: Date },
  limit = FALLEN_DUE_LIMIT,
): Promise<{ next: FallenDuePosition; stored: number }> {
  const tasks = await tasksFallenDue(db, window.after, window.until, limit);
  let stored = 0;
  for (const task of tasks) {
    if (task.assigneeId === null) continue;
    const assigneeId = task.assigneeId;
    const added = await db.transaction().execute((trx) =>
      producers.taskDue(
        trx,
        {
          id: task.id,
          assigneeId,
          dueAt: task.dueAt,
          leadId: task.leadId,
          link: `/admin/leads/${task.leadId}`,
        },
        window.until,
      ),
    );
    if (added) stored++;
  }
  // A full batch leaves the rest for the next sweep, from just after the last one handed on (its
  // due time and id: others due at the same instant come next).
  const last = tasks.at(-1);
  const next: FallenDuePosition =
    tasks.length >= limit && last
      ? { at: new Date(last.dueAt), id: last.id }
      : { at: window.until, id: null };
  return { next, stored };
}
