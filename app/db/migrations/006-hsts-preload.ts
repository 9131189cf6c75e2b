import { type Kysely, sql } from "kysely";

// Chromium's HSTS preload list for the security audit (issue 5): one row per force-https entry,
// filled by `npm run audit:update-hsts-preload`. Looked up by exact name only, so the primary key
// is the whole index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("hsts_preload")
    .addColumn("name", "text", (column) => column.primaryKey())
    .addColumn("include_subdomains", "integer", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("hsts_preload").execute();
  // Its date and source, or audits would believe an (empty) list is installed after an up again.
  await sql`delete from app_settings where key = 'hsts_preload_list'`.execute(db);
}
