import { type Kysely, sql } from "kysely";
import { isPostgres } from "../migration-helpers.ts";

// Issue 35: the lead list sorted by name, company or status across every status (no status or
// owner filter), and the lead page's previous and next in such a list (lead-neighbours.server.ts).
// Migration 025's sort indexes are partial (unassigned, or one owner's) and lead with the status, so
// neither database could read them in the order of the whole list: each list page and each step of
// previous/next read and sorted every live lead (25-80 ms on SQLite at 100,000 leads, measured in
// docs/performance.md). One index per order over the live leads serves the page (LIMIT after an
// in-order read) and the keyset step (`(key, id) > (…)`, LIMIT 1) alike.
//
// The status order is the pipeline's (new, contacted, qualified, unqualified, customer), not the
// alphabet's, so that index is on the rank expression. It must stay the very expression
// lead-admin.server.ts orderLeads sorts by (both databases match an expression index by its text
// and shape), written out here because a migration never imports from the code that may move on.
// Three more index entries per new lead: measured against the lead submission path (bench:leads).

const LIVE = "anonymised_at is null";

/** The sort key as migrations 009 and 025 index it: compared byte by byte on both databases. */
function sortKey(db: Kysely<unknown>, column: string) {
  return sql.raw(isPostgres(db) ? `${column} collate "C"` : column);
}

const STATUS_RANK = sql.raw(
  "(case status when 'new' then 0 when 'contacted' then 1 when 'qualified' then 2 " +
    "when 'unqualified' then 3 when 'customer' then 4 end)",
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index leads_live_name_idx on leads (is_spam, ${sortKey(db, "full_name_key")}, id)
    where ${sql.raw(LIVE)}`.execute(db);
  await sql`create index leads_live_company_idx on leads (is_spam, ${sortKey(db, "company_key")}, id)
    where ${sql.raw(LIVE)}`.execute(db);
  await sql`create index leads_live_status_rank_idx on leads (is_spam, ${STATUS_RANK}, id)
    where ${sql.raw(LIVE)}`.execute(db);
  // As migration 025: where SQLite was ever analyzed, new indexes without statistics lose to old ones.
  if (!isPostgres(db)) {
    const analyzed = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (analyzed.rows.length > 0) await sql`analyze leads`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ["leads_live_status_rank_idx", "leads_live_company_idx", "leads_live_name_idx"])
    await db.schema.dropIndex(name).execute();
}
