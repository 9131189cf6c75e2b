import type { Kysely } from "kysely";
import { z } from "zod";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { addDays, dateIn, parseDate, toInstant } from "#app/lib/time-zones.ts";
import {
  mayChangeTask,
  refreshNextTask,
  type TaskEditor,
  TaskNotYoursError,
} from "./lead-activities.server.ts";
import { recordLeadEvent } from "./lead-events.server.ts";
import { NEXT_STEP_MAX } from "./ui/next-step-words.ts";

// A lead's next step (issue 23): one short text and the day it is due, set and cleared on the lead's
// page, recorded on its timeline, and shown on the list (overdue ones marked) so "My leads" is a
// to-do list. Since issue 35 (ADR 041) it is the lead's earliest open task: setting it rewrites that
// task (or adds one, assigned to the lead's owner, else to whoever sets it, due at the end of the
// day in their zone), clearing it marks that task done. Both are changes of that task, so they follow
// its rule (mayChangeTask): the person it is assigned to, whoever added it, or tasks.team; the task
// keeps its author, and the timeline names the task and whose it is.

const DATE = z
  .string({ error: "Choose the day it is due." })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Choose the day it is due.")
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    "Choose a real day.",
  )
  .refine((value) => value >= "2000-01-01" && value <= "2999-12-31", "Choose a day this millennium.");

export const NextStepSchema = z.object({
  body: z
    .string({ error: "Say what the next step is." })
    .refine(
      (value) => !breaksTextRule(value, "one-line"),
      "The next step may not contain control characters.",
    )
    .trim()
    .min(1, "Say what the next step is.")
    .max(NEXT_STEP_MAX, `A next step may have at most ${NEXT_STEP_MAX} characters.`),
  dueOn: DATE,
});

export type NextStepInput = z.infer<typeof NextStepSchema>;
export type NextStep = {
  taskId: number;
  body: string;
  /** The due day in the zone it was read for (YYYY-MM-DD) and the due instant. */
  dueOn: string;
  dueAt: string;
  /** Whose task it is, and who added it (ids null once the account is gone). */
  assigneeId: number | null;
  assignee: string | null;
  authorId: number | null;
  author: string;
  /** When the task last changed. */
  setAt: string;
};

/** The lead, held (PostgreSQL) until the change is in, so the retention purge cannot clear it in between. */
async function readLiveLead(trx: Kysely<Database>, leadId: number) {
  let read = trx
    .selectFrom("leads")
    .select(["id", "ownerId", "nextTaskId"])
    .where("id", "=", leadId)
    .where("anonymisedAt", "is", null);
  if (isPostgres(trx)) read = read.forUpdate();
  return read.executeTakeFirst();
}

/** The last millisecond of `day` (YYYY-MM-DD) in `zone`, as an ISO instant. */
export function endOfDayIn(day: string, zone: string): string {
  const next = parseDate(addDays(day, 1));
  const midnight = next ? toInstant({ ...next, hour: 0, minute: 0 }, zone) : null;
  return new Date((midnight ?? Date.parse(`${day}T23:59:59.999Z`) + 1) - 1).toISOString();
}

/**
 * The lead's next task as the change of it needs it: whose it is, and whether `editor` may change
 * it; throws TaskNotYoursError when not.
 */
async function nextTaskFor(trx: Kysely<Database>, taskId: number, editor: TaskEditor) {
  const task = await trx
    .selectFrom("leadActivities")
    .leftJoin("users", "users.id", "leadActivities.assigneeUserId")
    .select([
      "leadActivities.body",
      "leadActivities.assigneeUserId",
      "leadActivities.authorUserId",
      "users.username as assignee",
    ])
    .where("leadActivities.id", "=", taskId)
    .executeTakeFirstOrThrow();
  const owners = {
    assigneeId: task.assigneeUserId === null ? null : Number(task.assigneeUserId),
    authorId: task.authorUserId === null ? null : Number(task.authorUserId),
  };
  if (!mayChangeTask(editor, owners)) throw new TaskNotYoursError();
  return task;
}

/**
 * Sets the lead's next step: rewrites its earliest open task (what and due; its author and assignee
 * stay), or adds one (assigned to the lead's owner, else `editor`), due at the end of `dueOn` in
 * `zone`; records it with the task and whose it is. False when the lead does not exist. Throws
 * TaskNotYoursError when the next task is someone else's and `editor` may not change it.
 */
export async function setNextStep(
  db: Kysely<Database>,
  leadId: number,
  input: NextStepInput,
  editor: TaskEditor,
  now = new Date(),
  zone = "UTC",
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const lead = await readLiveLead(trx, leadId);
    if (!lead) return false;
    const actor = { id: editor.id, username: editor.username };
    const setAt = now.toISOString();
    const dueAt = endOfDayIn(input.dueOn, zone);
    let taskId: number;
    let assignee: string | null;
    if (lead.nextTaskId !== null) {
      taskId = Number(lead.nextTaskId);
      assignee = (await nextTaskFor(trx, taskId, editor)).assignee ?? null;
      await trx
        .updateTable("leadActivities")
        .set({ body: input.body, dueAt, updatedAt: setAt })
        .where("id", "=", taskId)
        .execute();
    } else {
      const owner =
        lead.ownerId === null
          ? undefined
          : await trx
              .selectFrom("users")
              .select(["id", "username"])
              .where("id", "=", lead.ownerId)
              .where("disabled", "=", 0)
              .executeTakeFirst();
      const row = await trx
        .insertInto("leadActivities")
        .values({
          leadId,
          kind: "task",
          body: input.body,
          dueAt,
          authorUserId: actor.id,
          authorUsername: actor.username,
          outcome: null,
          durationMinutes: null,
          direction: null,
          assigneeUserId: owner ? Number(owner.id) : actor.id,
          doneAt: null,
          doneByUsername: null,
          createdAt: setAt,
          updatedAt: setAt,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      taskId = Number(row.id);
      assignee = owner ? owner.username : actor.username;
    }
    await recordLeadEvent(trx, {
      leadId,
      type: "next_step_set",
      actor,
      detail: { taskId, text: input.body, due: input.dueOn, assignee },
      now,
    });
    await refreshNextTask(trx, leadId, now);
    return true;
  });
}

/**
 * The Work card's "Mark done": marks the lead's next step (its earliest open task) done and records
 * it (`next_step_cleared`, issue 23's name); its next open task, if any, becomes the next step. False
 * when the lead does not exist. A lead without one changes and records nothing. Throws
 * TaskNotYoursError when the next task is someone else's and `editor` may not change it.
 */
export async function clearNextStep(
  db: Kysely<Database>,
  leadId: number,
  editor: TaskEditor,
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const lead = await readLiveLead(trx, leadId);
    if (!lead) return false;
    if (lead.nextTaskId === null) return true;
    const taskId = Number(lead.nextTaskId);
    const { assignee } = await nextTaskFor(trx, taskId, editor);
    const current = await trx
      .updateTable("leadActivities")
      .set({ doneAt: now.toISOString(), doneByUsername: editor.username, updatedAt: now.toISOString() })
      .where("id", "=", taskId)
      .where("doneAt", "is", null)
      .returning(["body"])
      .executeTakeFirst();
    if (current)
      await recordLeadEvent(trx, {
        leadId,
        type: "next_step_cleared",
        actor: { id: editor.id, username: editor.username },
        detail: { taskId, text: current.body, assignee: assignee ?? null },
        now,
      });
    await refreshNextTask(trx, leadId, now);
    return true;
  });
}

/** The next step (earliest open task) of each of `leadIds` that has one: one indexed read for a page. */
export async function nextStepsOf(
  db: Kysely<Database>,
  leadIds: number[],
  zone = "UTC",
): Promise<Map<number, NextStep>> {
  if (leadIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("leads")
    .innerJoin("leadActivities", "leadActivities.id", "leads.nextTaskId")
    .leftJoin("users", "users.id", "leadActivities.assigneeUserId")
    .select([
      "leads.id as leadId",
      "leadActivities.id as taskId",
      "leadActivities.body",
      "leadActivities.dueAt",
      "leadActivities.assigneeUserId",
      "users.username as assignee",
      "leadActivities.authorUserId",
      "leadActivities.authorUsername",
      "leadActivities.updatedAt",
    ])
    .where("leads.id", "in", leadIds)
    .execute();
  return new Map(
    rows.map((row) => {
      const dueAt = row.dueAt ?? "";
      return [
        Number(row.leadId),
        {
          taskId: Number(row.taskId),
          body: row.body,
          dueOn: dueAt ? dateIn(Date.parse(dueAt), zone) : "",
          dueAt,
          assigneeId: row.assigneeUserId === null ? null : Number(row.assigneeUserId),
          assignee: row.assignee ?? null,
          authorId: row.authorUserId === null ? null : Number(row.authorUserId),
          author: row.authorUsername,
          setAt: row.updatedAt,
        },
      ];
    }),
  );
}

/** True when a step due on `dueOn` (YYYY-MM-DD) is past its day at `now` (UTC days). */
export function isOverdue(dueOn: string, now = new Date()): boolean {
  return dueOn < now.toISOString().slice(0, 10);
}

/** True when a task due at `dueAt` (an ISO instant) is past it at `now`. */
export function isTaskOverdue(dueAt: string, now = new Date()): boolean {
  return dueAt < now.toISOString();
}
