import type { Kysely } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 25, the lab check (ADR 031): each Lighthouse run staff start from /admin/audit or the API
// is kept like the performance checks. The score, device and the two Core Web Vitals the history
// and the watches read are columns; the whole LabResult (its images capped at ~0.9 MB in all, see
// lab-types.ts) is JSON text.
export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("lab_checks"))
    .addColumn("url", "text", (column) => column.notNull())
    .addColumn("device", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("score", "integer", (column) => column.notNull())
    .addColumn("lcp_ms", "integer", (column) => column.notNull())
    /** CLS × 1000, an integer on both databases. */
    .addColumn("cls_milli", "integer", (column) => column.notNull())
    .addColumn("error", "text")
    .addColumn("result", "text", (column) => column.notNull())
    .addColumn("created_by", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("lab_checks_created_idx").on("lab_checks").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("lab_checks").execute();
}
