import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { checkPostgres, withDatabaseBefore } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { migrateToLatest } from "../migrate.server.ts";
import { down } from "./032-lead-counts-per-session.ts";

// Migration 032 on a database that already holds leads, on both databases: the counts carry over
// (on PostgreSQL the id shards are folded into shard 0, and later writes go to the session's own
// shard), and going back to 020's id shards counts the leads again.

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`migration 032 on existing leads [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    if (!available) return;

    it("keeps the counts, and counts on by session", async () => {
      await withDatabaseBefore(kind, "032", async (database) => {
        const db = database.db;
        await db
          .insertInto("leads")
          .values(
            Array.from({ length: 30 }, (_, index) =>
              leadRow({
                email: `old${index}@example.com`,
                status: (["new", "contacted", "qualified"] as const)[index % 3],
                isSpam: index % 10 === 0 ? 1 : 0,
              }),
            ),
          )
          .execute();
        const counts = async () =>
          Object.fromEntries(
            (
              await db
                .selectFrom("leadCounts")
                .select(["isSpam", "status", (eb) => eb.fn.sum("count").as("count")])
                .groupBy(["isSpam", "status"])
                .execute()
            )
              .filter((row) => Number(row.count) !== 0)
              .map((row) => [`${row.isSpam}/${row.status}`, Number(row.count)]),
          );
        const shards = async () =>
          (await db.selectFrom("leadCounts").select("shard").distinct().orderBy("shard").execute()).map(
            (row) => Number(row.shard),
          );
        const expected = {
          "0/new": 9,
          "0/contacted": 9,
          "0/qualified": 9,
          "1/new": 1,
          "1/contacted": 1,
          "1/qualified": 1,
        };
        expect(await counts()).toEqual(expected);
        expect(await shards()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

        expect((await migrateToLatest(db))[0]).toBe("032-lead-counts-per-session");
        expect(await counts()).toEqual(expected);
        // PostgreSQL: one shard left; SQLite: unchanged.
        expect(await shards()).toEqual(kind === "postgres" ? [0] : [0, 1, 2, 3, 4, 5, 6, 7]);

        await db
          .insertInto("leads")
          .values(leadRow({ email: "new@example.com", status: "new" }))
          .execute();
        await db.updateTable("leads").set({ status: "customer" }).where("status", "=", "qualified").execute();
        const after = {
          "0/new": 10,
          "0/contacted": 9,
          "0/customer": 9,
          "1/new": 1,
          "1/contacted": 1,
          "1/customer": 1,
        };
        expect(await counts()).toEqual(after);
        // The writing sessions' own rows beside shard 0 (one or two sessions of the pool).
        if (kind === "postgres") expect((await shards()).length).toBeGreaterThanOrEqual(2);

        await down(db as unknown as Kysely<unknown>);
        expect(await counts()).toEqual(after);
        if (kind === "postgres") expect(await shards()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      });
    });
  });
}
