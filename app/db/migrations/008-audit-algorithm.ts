import type { Kysely } from "kysely";

// Issue 9 point 13: every security audit records which version of the HTTP Observatory's scoring
// algorithm graded it, so a score from before a methodology change stays explainable. Audits stored
// before this column existed were all graded with version 4.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("security_audits")
    .addColumn("algorithm_version", "integer", (column) => column.notNull().defaultTo(4))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("security_audits").dropColumn("algorithm_version").execute();
}
