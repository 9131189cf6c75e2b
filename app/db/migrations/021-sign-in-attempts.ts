import { type Kysely, sql } from "kysely";

// Issue 22 point 2: wrong second-factor codes are bounded per pending login (at most 5, then the
// password step again), counted on the row in the same conditional UPDATE that admits the attempt.
// NOTE: numbered 021 on branch i22-auth; other branches may add their own 021 (renumber on merge).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("pending_logins")
    .addColumn("code_attempts", "integer", (column) => column.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("pending_logins").dropColumn("code_attempts").execute();
}
