import type { Kysely } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Website audits (issue 5): each security audit and performance check is kept, with the full
// result as JSON, so staff can compare runs over time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("security_audits"))
    .addColumn("url", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("score", "integer", (column) => column.notNull())
    .addColumn("uncapped_score", "integer", (column) => column.notNull())
    .addColumn("grade", "text", (column) => column.notNull())
    .addColumn("issue_count", "integer", (column) => column.notNull())
    /** AuditResult.issues and .tests as JSON text. */
    .addColumn("issues", "text", (column) => column.notNull())
    .addColumn("tests", "text", (column) => column.notNull())
    .addColumn("created_by", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("security_audits_created_idx")
    .on("security_audits")
    .column("created_at")
    .execute();

  await autoIncrementId(db, db.schema.createTable("performance_checks"))
    .addColumn("url", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("load_time", "integer", (column) => column.notNull())
    .addColumn("status", "integer", (column) => column.notNull())
    .addColumn("error", "text")
    /** The whole PerformanceResult as JSON text. */
    .addColumn("result", "text", (column) => column.notNull())
    .addColumn("created_by", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("performance_checks_created_idx")
    .on("performance_checks")
    .column("created_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["performance_checks", "security_audits"]) await db.schema.dropTable(table).execute();
}
