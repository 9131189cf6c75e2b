import { sql } from "kysely";
import { expect, it } from "vitest";
import { checkPostgres, createTestDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { createUser } from "../auth/users.server.ts";
import { addNote } from "./lead-notes.server.ts";

// The retention purge anonymises a lead in a transaction that locks it; a note added meanwhile must
// not end up on the anonymised lead (review of issue 13). SQLite runs one write transaction at a
// time, so the race exists only on PostgreSQL, where each statement takes its own row locks.
it("never leaves a note on a lead anonymised while the note was being added [postgres]", async () => {
  if (!(await checkPostgres())) return;
  const database = await createTestDatabase("postgres");
  try {
    const { db } = database;
    const lead = await db.insertInto("leads").values(leadRow()).returning("id").executeTakeFirstOrThrow();
    const leadId = Number(lead.id);
    const author = await createUser(db, {
      username: "sam",
      password: "a long enough password",
      isAdmin: true,
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The purge's side: the lead locked, as its batch reads it, then cleared and committed.
    const purge = db.transaction().execute(async (trx) => {
      await trx.selectFrom("leads").select("id").where("id", "=", leadId).forUpdate().execute();
      await released;
      await trx
        .updateTable("leads")
        .set({ fullName: "", email: "", anonymisedAt: new Date().toISOString() })
        .where("id", "=", leadId)
        .execute();
      await trx.deleteFrom("leadNotes").where("leadId", "=", leadId).execute();
    });
    const note = addNote(db, leadId, "Called Jane on 020 7946 0958", {
      id: author.id,
      username: author.username,
    });
    // Once the note's transaction waits on the purge's lock (wherever in it), let the purge commit.
    for (let tries = 0; tries < 200; tries++) {
      const waiting = await sql<{ count: string }>`select count(*) as count from pg_stat_activity
        where wait_event_type = 'Lock' and datname = current_database()`.execute(db);
      if (Number(waiting.rows[0]?.count ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    release();
    await purge;
    await expect(note).resolves.toBeUndefined();
    const notes = await db.selectFrom("leadNotes").select("id").where("leadId", "=", leadId).execute();
    expect(notes).toEqual([]);
  } finally {
    await database.dispose();
  }
});
