import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { leadRow } from "../../tests/support/lead-rows.ts";
import { isOtherSchemaGone, MigrationError, migrateToLatest, migrations } from "./migrate.server.ts";

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

describe("a migration that met another test's schema being dropped", () => {
  const error = (code: string, message: string) => Object.assign(new Error(message), { code });
  it("is tried again when the schema or relation that went is another's, never when it is ours", () => {
    expect(isOtherSchemaGone(error("3F000", 'schema "test_other" does not exist'), "test_ours")).toBe(true);
    expect(isOtherSchemaGone(error("3F000", 'schema "test_ours" does not exist'), "test_ours")).toBe(false);
    // Seen in CI: Kysely's listing of every schema's tables looked at a table just dropped.
    const gone = 'relation "test_25e7078744be.hsts_preload" does not exist';
    expect(isOtherSchemaGone(error("42P01", gone), "test_ours")).toBe(true);
    expect(isOtherSchemaGone(error("42P01", 'relation "test_ours.leads" does not exist'), "test_ours")).toBe(
      false,
    );
    // A migration's own missing table (no schema in the name) is a real failure.
    expect(isOtherSchemaGone(error("42P01", 'relation "leads" does not exist'), "test_ours")).toBe(false);
    expect(isOtherSchemaGone(error("23505", gone), "test_ours")).toBe(false);
  });
});
