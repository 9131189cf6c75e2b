import { type RawBuilder, sql } from "kysely";
import type { LeadOrigin } from "./lead-origin.ts";

/**
 * A lead's origin (lead-origin.ts) as SQL, for a row of `leads` under `alias`: the same on SQLite and
 * PostgreSQL. A key's lead carries `api_key_id` (its `source` is the key's name, free text, so it is
 * looked at first); `form` and `api` without a key are the website's; `staff:<slug>` was added by
 * staff, and is an import when an import created it (`lead_import_changes`, indexed by lead). A
 * source that is none of these is a key's name whose key is gone.
 *
 * `scan`: for a query over many leads (the analytics report), the imports' created leads are read
 * once as a set (`in`: hashed by PostgreSQL, an ephemeral index in SQLite) rather than probed lead by
 * lead (`exists`, best for a page of ten). The origins of 20,000 leads, 6,000 of them staff's: 27–34
 * against 48–50 ms on PostgreSQL (SQLite about the same either way), on the loaded 2-core machine.
 */
export function leadOriginSql(alias: string, { scan = false } = {}): RawBuilder<LeadOrigin> {
  const lead = sql.ref(alias);
  const imported = scan
    ? sql`${lead}.id in (select lead_id from lead_import_changes where kind = 'created')`
    : sql`exists (select 1 from lead_import_changes c where c.lead_id = ${lead}.id and c.kind = 'created')`;
  return sql<LeadOrigin>`case
    when ${lead}.api_key_id is not null then 'api_key'
    when ${lead}.source in ('form', 'api') then 'website'
    when ${lead}.source like 'staff:%' then case when ${imported} then 'imported' else 'added_by_staff' end
    else 'api_key' end`;
}

/** SQL true for a website lead (lead-origin.ts): what conversion, channels, pages and the funnel count. */
export function isWebsiteLeadSql(alias: string): RawBuilder<boolean> {
  const lead = sql.ref(alias);
  return sql<boolean>`(${lead}.api_key_id is null and ${lead}.source in ('form', 'api'))`;
}
