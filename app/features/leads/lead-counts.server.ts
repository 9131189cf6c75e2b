import { type Kysely, sql } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";

const KEY = "is_spam, status, owner_id, request_type, anonymised, shard";

/** How often an instance folds lead_counts' session rows together (cheap: a few hundred rows at most). */
export const LEAD_COUNTS_COMPACT_MS = 60_000;

/**
 * On PostgreSQL, lead_counts' triggers write to a row of the writing session's own (its backend
 * pid, migration 032), so no lead waits on another's counter row; sessions come and go, and their
 * rows would pile up. This folds every row of a shard other than 0 into shard 0 in one statement
 * (all or nothing: a count is the sum over shards before and after), skipping rows an open
 * transaction holds, so it waits on no submission, and none waits on it for longer than this
 * statement. Any instance may run it at any time. Returns how many rows it folded; SQLite shards
 * by id (one writer at a time): nothing to do there.
 */
export async function compactLeadCounts(db: Kysely<Database>): Promise<number> {
  if (!isPostgres(db)) return 0;
  const result = await sql<{ folded: number | string }>`
    with moved as (
      delete from lead_counts
      where ctid in (select ctid from lead_counts where shard <> 0 for update skip locked)
      returning is_spam, status, owner_id, request_type, anonymised, count
    ),
    folded as (
      insert into lead_counts (${sql.raw(KEY)}, count)
      select is_spam, status, owner_id, request_type, anonymised, 0, sum(count) from moved
      group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
      on conflict (${sql.raw(KEY)}) do update set count = lead_counts.count + excluded.count
    )
    select count(*) as folded from moved`.execute(db);
  return Number(result.rows[0]?.folded ?? 0);
}
