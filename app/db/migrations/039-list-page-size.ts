import type { Kysely } from "kysely";

// Issue 35: the lead list's "Per page" choice (10, 25, 50 or 100) is kept for each person and used
// when the list's URL names none. Null: never chosen, the spec's 10.
// NOTE: numbered 039 on branch ws-board; other branches of issue 35 took 037 and 038.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("list_page_size", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("list_page_size").execute();
}
