import { type Kysely, sql } from "kysely";
import { isPostgres } from "../migration-helpers.ts";

// Issue 23: the lead list's work views at 100,000 leads (npm run bench:admin, docs/performance.md).
//
// - The unassigned view (`owner=none`) sorted by company or name. Migration 009's indexes were
//   (is_spam, status, owner_id, key, id): SQLite reads them in order, but PostgreSQL's planner does
//   not treat `owner_id IS NULL` as fixing owner_id, so it could not see that the index's order is
//   the list's and sorted every unassigned lead of the status (a sequential scan, 250-400 ms).
//   Partial indexes on the unassigned live leads leave owner_id out of the key, so both databases
//   read one in order and stop after a page. They replace 009's two. A third serves the status
//   order, which within one status is the id's (lead-admin.server.ts orderLeads): SQLite otherwise
//   sorted every unassigned lead of the status (250-600 ms). A new lead (always unassigned) so
//   updates three sort indexes where it updated two.
// - "My leads" (`owner=<id>`), newest first or sorted by company or name: indexes of the assigned
//   live leads led by the owner. A new lead has no owner, so a submission never writes to them;
//   assigning a lead writes one entry to each.
// Anonymised leads are left out of all five: the list never shows them (lead-admin.server.ts).
// NOTE: numbered 025 on branch i23-adminperf; renumber on merge if another branch took it.

const LIVE = "anonymised_at is null";
const SORT_KEYS = [
  ["company", "company_key"],
  ["name", "full_name_key"],
] as const;

/** The sort key as migration 009 indexed it: compared byte by byte on both databases. */
function sortKey(db: Kysely<unknown>, column: string) {
  return sql.raw(isPostgres(db) ? `${column} collate "C"` : column);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, column] of SORT_KEYS) {
    await sql`create index ${sql.raw(`leads_unassigned_${name}_idx`)}
      on leads (is_spam, status, ${sortKey(db, column)}, id)
      where owner_id is null and ${sql.raw(LIVE)}`.execute(db);
    await sql`create index ${sql.raw(`leads_owner_${name}_idx`)}
      on leads (owner_id, is_spam, ${sortKey(db, column)}, id)
      where owner_id is not null and ${sql.raw(LIVE)}`.execute(db);
  }
  await sql`create index leads_unassigned_id_idx on leads (is_spam, status, id)
    where owner_id is null and ${sql.raw(LIVE)}`.execute(db);
  await sql`create index leads_owner_created_idx on leads (owner_id, is_spam, created_at, id)
    where owner_id is not null and ${sql.raw(LIVE)}`.execute(db);
  await db.schema.dropIndex("leads_company_sort_idx").execute();
  await db.schema.dropIndex("leads_name_sort_idx").execute();
  // SQLite weighs an index without statistics against ones with: where an ANALYZE was ever run,
  // the new indexes need theirs, or the planner takes a partial index to sort a whole status
  // (measured: the unassigned view newest first went 0.5 → 580 ms). PostgreSQL's autovacuum
  // analyzes by itself. About 0.6 s at 100,000 leads.
  if (!isPostgres(db)) {
    const analyzed = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (analyzed.rows.length > 0) await sql`analyze leads`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, column] of SORT_KEYS) {
    await sql`create index ${sql.raw(`leads_${name}_sort_idx`)}
      on leads (is_spam, status, owner_id, ${sortKey(db, column)}, id)`.execute(db);
    await db.schema.dropIndex(`leads_unassigned_${name}_idx`).execute();
    await db.schema.dropIndex(`leads_owner_${name}_idx`).execute();
  }
  await db.schema.dropIndex("leads_unassigned_id_idx").execute();
  await db.schema.dropIndex("leads_owner_created_idx").execute();
}
