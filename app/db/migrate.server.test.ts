import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { leadRow } from "../../tests/support/lead-rows.ts";
import { MigrationError, migrateToLatest, migrations } from "./migrate.server.ts";

describeEachDatabase("migrations", (use) => {
  it("are already applied by the test setup, and applying again changes nothing", async () => {
    await expect(migrateToLatest(use().db)).resolves.toEqual([]);
  });

  it("create the tables the app uses, with the lead defaults", async () => {
    const row = await use()
      .db.insertInto("leads")
      // No status: the column's default is what this test checks.
      .values(
        leadRow({ fullName: "A", email: "a@example.com", company: "B", phone: "0123456", sourcePage: null }),
      )
      .returning(["id", "status"])
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("new");
    // The status column only takes the spec's five values.
    await expect(
      use().db.updateTable("leads").set({ status: "archived" }).where("id", "=", row.id).execute(),
    ).rejects.toThrow();
    await use().db.deleteFrom("leads").execute();
  });

  it("stop with a clear message naming the migration that failed", async () => {
    const broken = {
      up: async (db: Parameters<typeof migrateToLatest>[0]) => {
        await sql`select * from no_such_table`.execute(db);
      },
    };
    const list = { ...migrations, "999-broken": broken };
    await expect(migrateToLatest(use().db, list)).rejects.toBeInstanceOf(MigrationError);
    await expect(migrateToLatest(use().db, list)).rejects.toThrow(
      /Database migration "999-broken" failed: .*no_such_table/,
    );
  });
});
