import type { Kysely } from "kysely";
import { z } from "zod";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { NOTE_MAX_LENGTH } from "./lead-constants.ts";
import type { Actor } from "./lead-events.server.ts";

// Notes on a lead: what staff learned on a call, the next step. Plain text (shown escaped, line
// breaks kept), with author and time; the author's name is kept as written, like the status history.

export const NoteBodySchema = z
  .string({ error: "Please write a note." })
  .refine((value) => !breaksTextRule(value, "multi-line"), "The note may not contain control characters.")
  .trim()
  .min(1, "Please write a note.")
  .max(NOTE_MAX_LENGTH, `A note may have at most ${NOTE_MAX_LENGTH} characters.`);

export type LeadNote = { id: number; body: string; author: string; createdAt: string };

/** Adds a note; undefined when the lead does not exist (or was anonymised). The body must have passed NoteBodySchema. */
export async function addNote(
  db: Kysely<Database>,
  leadId: number,
  body: string,
  actor: Actor,
  now = new Date(),
): Promise<LeadNote | undefined> {
  return db.transaction().execute(async (trx) => {
    let read = trx
      .selectFrom("leads")
      .select("id")
      .where("id", "=", leadId)
      .where("anonymisedAt", "is", null);
    // PostgreSQL: hold the lead until the note is in, so the retention purge (which locks the leads
    // it anonymises) cannot clear the lead between this check and the insert and leave the note on it.
    if (isPostgres(trx)) read = read.forUpdate();
    const lead = await read.executeTakeFirst();
    if (!lead) return undefined;
    const createdAt = now.toISOString();
    const row = await trx
      .insertInto("leadNotes")
      .values({ leadId, body, authorUserId: actor.id, authorUsername: actor.username, createdAt })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.updateTable("leads").set({ updatedAt: createdAt }).where("id", "=", leadId).execute();
    return { id: Number(row.id), body, author: actor.username, createdAt };
  });
}

/** A lead's notes, newest first. */
export async function listNotes(db: Kysely<Database>, leadId: number): Promise<LeadNote[]> {
  const rows = await db
    .selectFrom("leadNotes")
    .select(["id", "body", "authorUsername", "createdAt"])
    .where("leadId", "=", leadId)
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    body: row.body,
    author: row.authorUsername,
    createdAt: row.createdAt,
  }));
}
