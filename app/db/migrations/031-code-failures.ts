import type { Kysely } from "kysely";

// Issue 32 point 3: wrong second-factor codes per account and UTC day, from clients that are not
// the account's trusted browsers. `failures` closes the code step to them at 20 (an admin's reset
// sets it back to 0); `wrong_codes` counts the same codes for the owner's notice and is never reset;
// `seen_at`: when the owner dismissed the notice about that day (null: not yet, or none due).
// NOTE: numbered 031 on branch fix/signin (029 is left to the TLS branch); renumber on merge if
// another 031 lands first. Nothing refers to the number but migrate.server.ts.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("code_failures")
    .addColumn("user_id", "integer", (column) => column.notNull().references("users.id").onDelete("cascade"))
    // 'YYYY-MM-DD', the UTC day the codes were entered.
    .addColumn("day", "text", (column) => column.notNull())
    .addColumn("failures", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("wrong_codes", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("seen_at", "text")
    .addPrimaryKeyConstraint("code_failures_pk", ["user_id", "day"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("code_failures").execute();
}
