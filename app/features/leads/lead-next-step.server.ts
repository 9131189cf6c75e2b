import type { Kysely } from "kysely";
import { z } from "zod";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { type Actor, recordLeadEvent } from "./lead-events.server.ts";
import { NEXT_STEP_MAX } from "./ui/next-step-words.ts";

// A lead's next step (issue 23): one short text and the day it is due, set and cleared on the lead's
// page, recorded on its timeline, and shown on the list (overdue ones marked) so "My leads" is a
// to-do list. One per lead: setting a new one replaces it.

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
export type NextStep = { body: string; dueOn: string; setBy: string; setAt: string };

/** The lead, held (PostgreSQL) until the change is in, so the retention purge cannot clear it in between. */
async function readLiveLead(trx: Kysely<Database>, leadId: number) {
  let read = trx.selectFrom("leads").select("id").where("id", "=", leadId).where("anonymisedAt", "is", null);
  if (isPostgres(trx)) read = read.forUpdate();
  return read.executeTakeFirst();
}

/** Sets (or replaces) the lead's next step and records it; false when the lead does not exist. */
export async function setNextStep(
  db: Kysely<Database>,
  leadId: number,
  input: NextStepInput,
  actor: Actor,
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await readLiveLead(trx, leadId))) return false;
    const setAt = now.toISOString();
    const values = {
      body: input.body,
      dueOn: input.dueOn,
      setByUserId: actor.id,
      setByUsername: actor.username,
      setAt,
    };
    await trx
      .insertInto("leadNextSteps")
      .values({ leadId, ...values })
      .onConflict((conflict) => conflict.column("leadId").doUpdateSet(values))
      .execute();
    await recordLeadEvent(trx, {
      leadId,
      type: "next_step_set",
      actor,
      detail: { text: input.body, due: input.dueOn },
      now,
    });
    await trx.updateTable("leads").set({ updatedAt: setAt }).where("id", "=", leadId).execute();
    return true;
  });
}

/**
 * Clears the lead's next step (done, or no longer wanted) and records it; false when the lead does
 * not exist. Clearing a lead without one changes and records nothing.
 */
export async function clearNextStep(
  db: Kysely<Database>,
  leadId: number,
  actor: Actor,
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await readLiveLead(trx, leadId))) return false;
    const current = await trx
      .deleteFrom("leadNextSteps")
      .where("leadId", "=", leadId)
      .returning(["body"])
      .executeTakeFirst();
    if (current) {
      await recordLeadEvent(trx, {
        leadId,
        type: "next_step_cleared",
        actor,
        detail: { text: current.body },
        now,
      });
      await trx.updateTable("leads").set({ updatedAt: now.toISOString() }).where("id", "=", leadId).execute();
    }
    return true;
  });
}

/** The next step of each of `leadIds` that has one (one indexed read for a page of the list). */
export async function nextStepsOf(db: Kysely<Database>, leadIds: number[]): Promise<Map<number, NextStep>> {
  if (leadIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("leadNextSteps")
    .select(["leadId", "body", "dueOn", "setByUsername", "setAt"])
    .where("leadId", "in", leadIds)
    .execute();
  return new Map(
    rows.map((row) => [
      Number(row.leadId),
      { body: row.body, dueOn: row.dueOn, setBy: row.setByUsername, setAt: row.setAt },
    ]),
  );
}

/** True when a step due on `dueOn` (YYYY-MM-DD) is past its day at `now` (UTC days). */
export function isOverdue(dueOn: string, now = new Date()): boolean {
  return dueOn < now.toISOString().slice(0, 10);
}
