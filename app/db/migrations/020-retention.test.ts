import { describe, expect, it } from "vitest";
import { checkPostgres, withDatabaseBefore } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { migrateToLatest } from "../migrate.server.ts";

// Migration 020 on a database that already holds leads (a deployed one), on both databases: the
// counts the triggers kept carry over (every lead not anonymised), old leads get the first policy
// version, and the rebuilt triggers keep counting, anonymisation included.

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`migration 020 on existing leads [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    if (!available) return;

    it("keeps the counts, dates old leads to the first policy, and counts on", async () => {
      await withDatabaseBefore(kind, "020", async (database) => {
        const db = database.db;
        // biome-ignore lint/suspicious/noExplicitAny: the schema before 020 lacks its columns
        const old = db as any;
        const rows = Array.from({ length: 30 }, (_, index) => {
          const {
            policyVersion: _p,
            anonymisedAt: _a,
            ...row
          } = leadRow({
            email: `old${index}@example.com`,
            status: (["new", "contacted", "qualified"] as const)[index % 3],
            isSpam: index % 10 === 0 ? 1 : 0,
          });
          return row;
        });
        await old.insertInto("leads").values(rows).execute();

        expect((await migrateToLatest(db))[0]).toBe("020-retention");
        const counts = async () =>
          Object.fromEntries(
            (
              await db
                .selectFrom("leadCounts")
                .select(["isSpam", "status", "anonymised", (eb) => eb.fn.sum("count").as("count")])
                .groupBy(["isSpam", "status", "anonymised"])
                .execute()
            )
              .filter((row) => Number(row.count) !== 0)
              .map((row) => [`${row.isSpam}/${row.status}/${row.anonymised}`, Number(row.count)]),
          );
        // What counting the rows gives: the counts carried over (the triggers kept them before 020).
        const rowCounts = async () =>
          Object.fromEntries(
            (
              await db
                .selectFrom("leads")
                .select([
                  "isSpam",
                  "status",
                  (eb) => eb.case().when("anonymisedAt", "is", null).then(0).else(1).end().as("anonymised"),
                  (eb) => eb.fn.countAll().as("count"),
                ])
                .groupBy(["isSpam", "status", "anonymisedAt"])
                .execute()
            ).map((row) => [`${row.isSpam}/${row.status}/${row.anonymised}`, Number(row.count)]),
          );
        expect(await counts()).toEqual({
          "0/new/0": 9,
          "0/contacted/0": 9,
          "0/qualified/0": 9,
          "1/new/0": 1,
          "1/contacted/0": 1,
          "1/qualified/0": 1,
        });
        expect(await counts()).toEqual(await rowCounts());
        const versions = await db.selectFrom("leads").select("policyVersion").distinct().execute();
        expect(versions).toEqual([{ policyVersion: "2025-04-01" }]);

        // The rebuilt triggers: an anonymised lead moves to anonymised = 1; a new lead is counted.
        const first = await db
          .selectFrom("leads")
          .select("id")
          .where("isSpam", "=", 0)
          .orderBy("id")
          .limit(1)
          .executeTakeFirstOrThrow();
        await db
          .updateTable("leads")
          .set({ anonymisedAt: "2026-11-26T00:00:00.000Z" })
          .where("id", "=", first.id)
          .execute();
        await db
          .insertInto("leads")
          .values(leadRow({ email: "new@example.com", status: "new" }))
          .execute();
        expect(await counts()).toMatchObject({ "0/new/0": 10, "0/contacted/0": 8, "0/contacted/1": 1 });
        expect(await counts()).toEqual(await rowCounts());
      });
    });
  });
}
