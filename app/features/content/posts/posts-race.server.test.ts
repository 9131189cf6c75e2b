import { sql } from "kysely";
import { expect, it } from "vitest";
import { checkPostgres, createTestDatabase } from "../../../../tests/support/databases.ts";
import { parsePostCreate } from "./post-schema.ts";
import { createPost, updatePost } from "./posts-store.server.ts";

// Two saves made on the same revision must never both succeed (issue 24). Every write queues on the
// posts version row (post-rows.server.ts takeVersion); this checks the second line of defence on its
// own, with real concurrency on PostgreSQL: a save that has read revision 1 while another writer's
// change to the row is still uncommitted waits for that writer, then finds its `where revision = 1`
// no longer true and answers a conflict instead of writing over the other's work. (SQLite runs one
// write transaction at a time, so there the interleaving cannot happen.)

it("refuses a save whose revision another transaction changed while it waited [postgres]", async () => {
  if (!(await checkPostgres())) return;
  const database = await createTestDatabase("postgres");
  try {
    const { db } = database;
    const input = parsePostCreate({ kind: "article", title: "Raced", body: "First words." });
    if (!input.success) throw new Error("invalid input");
    const created = await createPost(db, input.data, null);
    if (created.kind !== "created") throw new Error("not created");
    const id = created.post.id;

    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The other writer: it has changed the row (revision 2) and not yet committed.
    const other = db.transaction().execute(async (trx) => {
      await trx
        .updateTable("posts")
        .set({ title: "Other's title", revision: 2 })
        .where("id", "=", id)
        .execute();
      await released;
    });
    // Wait until the other writer holds the row.
    for (let tries = 0; tries < 200; tries++) {
      const locked = await sql<{ count: string }>`select count(*) as count from pg_locks l
        join pg_class c on c.oid = l.relation where c.relname = 'posts' and l.mode = 'RowExclusiveLock'
        and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())`.execute(db);
      if (Number(locked.rows[0]?.count ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const save = updatePost(db, id, { title: "My title" }, 1, null);
    // Once the save waits on the other writer's row lock (past its own check of the revision, which
    // read the committed 1), let the other commit.
    let waited = false;
    for (let tries = 0; tries < 500 && !waited; tries++) {
      const waiting = await sql<{ count: string }>`select count(*) as count from pg_stat_activity
        where wait_event_type = 'Lock' and datname = current_database() and query ilike 'update "posts"%'`.execute(
        db,
      );
      waited = Number(waiting.rows[0]?.count ?? 0) > 0;
      if (!waited) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(waited).toBe(true);
    release();
    await other;
    const result = await save;
    expect(result).toMatchObject({
      kind: "conflict",
      baseRevision: 1,
      yours: { title: "My title", body: "First words." },
      latest: { revision: 2, title: "Other's title" },
    });
    const row = await db
      .selectFrom("posts")
      .select(["title", "revision"])
      .where("id", "=", id)
      .executeTakeFirst();
    expect(row).toEqual({ title: "Other's title", revision: 2 });
    const revisions = await db
      .selectFrom("postRevisions")
      .select("revision")
      .where("postId", "=", id)
      .execute();
    expect(revisions.map((r) => Number(r.revision))).toEqual([1]);
  } finally {
    await database.dispose();
  }
});
