import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { checkPostgres, withDatabaseBefore } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { migrateToLatest } from "../migrate.server.ts";
import { down, up } from "./041-lead-former-emails.ts";

// Migration 041 on a database where staff already corrected e-mails (ADR 044), on both databases:
// each address an edit replaced is carried over from its timeline entry (a change of letter case,
// other fields and an unreadable entry are not), a lead's rows go with it, and it goes down and up.

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`migration 041 on corrected leads [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    if (!available) return;

    it("carries over the replaced addresses, and goes down and up again", async () => {
      await withDatabaseBefore(kind, "041", async (database) => {
        const db = database.db;
        const [moved, other] = await db
          .insertInto("leads")
          .values([leadRow({ email: "ben@new.example" }), leadRow({ email: "cy@example.com" })])
          .returning("id")
          .execute()
          .then((rows) => rows.map((row) => Number(row.id)));
        const event = (leadId: number | undefined, detail: string, createdAt: string) => ({
          leadId: Number(leadId),
          type: "contact_changed",
          actorUserId: null,
          actorName: "alice",
          detail,
          createdAt,
        });
        const changes = (...list: { field: string; from: string | null; to: string | null }[]) =>
          JSON.stringify({ changes: list });
        await db
          .insertInto("leadEvents")
          .values([
            event(
              moved,
              changes({ field: "email", from: "Ada@Old.example", to: "ada@old.EXAMPLE" }),
              "2026-01-01",
            ),
            event(
              moved,
              changes(
                { field: "phone", from: "+44 1", to: "+44 2" },
                { field: "email", from: " Ada@Old.example", to: "ben@new.example" },
              ),
              "2026-01-02",
            ),
            event(other, changes({ field: "fullName", from: "Cy", to: "Cyril" }), "2026-01-03"),
            event(other, "not json", "2026-01-04"),
          ])
          .execute();

        expect(await migrateToLatest(db)).toEqual(["041-lead-former-emails"]);
        const rows = () =>
          db
            .selectFrom("leadFormerEmails")
            .select(["leadId", "emailKey", "replacedAt"])
            .orderBy("id")
            .execute();
        const carried = [{ leadId: moved, emailKey: "ada@old.example", replacedAt: "2026-01-02" }];
        expect(await rows()).toEqual(carried);

        // Its foreign key: a deleted lead's rows go with it.
        await db
          .insertInto("leadFormerEmails")
          .values({ leadId: Number(other), emailKey: "x@y", replacedAt: "z" })
          .execute();
        await db.deleteFrom("leadEvents").where("leadId", "=", Number(other)).execute();
        await db.deleteFrom("leads").where("id", "=", Number(other)).execute();
        expect(await rows()).toEqual(carried);

        await down(db as unknown as Kysely<unknown>);
        await expect(sql`select count(*) from lead_former_emails`.execute(db)).rejects.toThrow();
        await up(db as unknown as Kysely<unknown>);
        expect(await rows()).toEqual(carried);
      });
    });
  });
}
