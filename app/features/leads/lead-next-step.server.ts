import type { Kysely } from "kysely";
import { z } from "zod";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { addDays, dateIn, parseDate, toInstant } from "#app/lib/time-zones.ts";
import { refreshNextTask } from "./lead-activities.server.ts";
import { type Actor, recordLeadEvent } from "./lead-events.server.ts";
import { NEXT_STEP_MAX } from "./ui/next-step-words.ts";

// A lead's next step (issue 23): one short text and the day it is due, set and cleared on the lead's
// page, recorded on its timeline, and shown on the list (overdue ones marked) so "My leads" is a
// to-do list. Since issue 35 (ADR 041) it is the lead's earliest open task: setting it rewrites that
// task (or adds one, assigned to the lead's owner, else to whoever sets it, due at the end of the
// day in their zone), clearing it marks that task done.

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
  setBy: string;
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
 * Sets the lead's next step: rewrites its earliest open task, or adds one (assigned to the lead's
 * owner, else `actor`), due at the end of `dueOn` in `zone`; records it. False when the lead does not exist.
 */
export async function setNextStep(
  db: Kysely<Database>,
  leadId: number,
  input: NextStepInput,
  actor: Actor,
  now = new Date(),
  zone = "UTC",
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const lead = await readLiveLead(trx, leadId);
    if (!lead) return false;
    const setAt = now.toISOString();
    const dueAt = endOfDayIn(input.dueOn, zone);
    const words = { body: input.body, dueAt, authorUserId: actor.id, authorUsername: actor.username };
    if (lead.nextTaskId !== null)
      await trx
        .updateTable("leadActivities")
        .set({ ...words, updatedAt: setAt })
        .where("id", "=", lead.nextTaskId)
        .execute();
    else {
      const owner =
        lead.ownerId === null
          ? undefined
          : await trx
              .selectFrom("users")
              .select("id")
              .where("id", "=", lead.ownerId)
              .where("disabled", "=", 0)
              .executeTakeFirst();
      await trx
        .insertInto("leadActivities")
        .values({
          leadId,
          kind: "task",
          ...words,
          outcome: null,
          durationMinutes: null,
          direction: null,
          assigneeUserId: owner ? Number(owner.id) : actor.id,
          doneAt: null,
          doneByUsername: null,
          createdAt: setAt,
          updatedAt: setAt,
        })
        .execute();
    }
    await recordLeadEvent(trx, {
      leadId,
      type: "next_step_set",
      actor,
      detail: { text: input.body, due: input.dueOn },
      now,
    });
    await refreshNextTask(trx, leadId, now);
    return true;
  });
}

/**
 * The Work card's "Mark done": marks the lead's next step (its earliest open task) done and records
 * it (`next_step_cleared`, issue 23's name); its next open task, if any, becomes the next step. False
 * when the lead does not exist. A lead without one changes and records nothing.
 */
export async function clearNextStep(
  db: Kysely<Database>,
  leadId: number,
  actor: Actor,
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const lead = await readLiveLead(trx, leadId);
    if (!lead) return false;
    if (lead.nextTaskId === null) return true;
    const current = await trx
      .updateTable("leadActivities")
      .set({ doneAt: now.toISOString(), doneByUsername: actor.username, updatedAt: now.toISOString() })
      .where("id", "=", lead.nextTaskId)
      .where("doneAt", "is", null)
      .returning(["body"])
      .executeTakeFirst();
    if (current)
      await recordLeadEvent(trx, {
        leadId,
        type: "next_step_cleared",
        actor,
        detail: { text: current.body },
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
    .select([
      "leads.id as leadId",
      "leadActivities.id as taskId",
      "leadActivities.body",
      "leadActivities.dueAt",
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
          setBy: row.authorUsername,
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
