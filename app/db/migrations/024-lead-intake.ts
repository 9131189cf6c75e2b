import { type Kysely, sql } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 23, leads that do not come from the website. A lead staff add by hand or import records who
// added it (`added_by_*`). An import is one batch (`lead_imports`) that can be undone: it lists every
// lead it created and every lead it merged into, with the merged lead's fields as they were before
// (`lead_import_changes.previous`), so "Undo this import" can remove the one and revert the other.
// A draft holds the uploaded file between the upload and the commit (the no-JavaScript mapping
// step is a second form post); its content is cleared when it is committed, and drafts older than a
// day are deleted (lead-import.server.ts).
// NOTE: numbered 024 on branch i23-intake; other issue-23 branches add 022 and 023.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("leads").addColumn("added_by_user_id", "integer").execute();
  await db.schema.alterTable("leads").addColumn("added_by_username", "text").execute();

  await autoIncrementId(db, db.schema.createTable("lead_imports"))
    .addColumn("file_name", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull().defaultTo(sql`'draft'`))
    .addColumn("content", "text")
    .addColumn("row_count", "integer", (column) => column.notNull().defaultTo(sql`0`))
    .addColumn("source", "text")
    .addColumn("owner_id", "integer")
    .addColumn("imported", "integer", (column) => column.notNull().defaultTo(sql`0`))
    .addColumn("merged", "integer", (column) => column.notNull().defaultTo(sql`0`))
    .addColumn("failed", "integer", (column) => column.notNull().defaultTo(sql`0`))
    .addColumn("created_by_user_id", "integer")
    .addColumn("created_by_username", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("committed_at", "text")
    .addColumn("undone_at", "text")
    .addColumn("undone_by_username", "text")
    .execute();
  await db.schema.createIndex("lead_imports_created_at").on("lead_imports").column("created_at").execute();

  await autoIncrementId(db, db.schema.createTable("lead_import_changes"))
    .addColumn("import_id", "integer", (column) => column.notNull())
    .addColumn("lead_id", "integer", (column) => column.notNull())
    .addColumn("kind", "text", (column) => column.notNull())
    .addColumn("row_number", "integer", (column) => column.notNull())
    .addColumn("previous", "text")
    .execute();
  await db.schema
    .createIndex("lead_import_changes_import")
    .on("lead_import_changes")
    .column("import_id")
    .execute();
  await db.schema
    .createIndex("lead_import_changes_lead")
    .on("lead_import_changes")
    .column("lead_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("lead_import_changes").execute();
  await db.schema.dropTable("lead_imports").execute();
  await db.schema.alterTable("leads").dropColumn("added_by_username").execute();
  await db.schema.alterTable("leads").dropColumn("added_by_user_id").execute();
}
