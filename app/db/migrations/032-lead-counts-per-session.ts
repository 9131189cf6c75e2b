import { type Kysely, sql } from "kysely";
import { isPostgres } from "../migration-helpers.ts";

// lead_counts' shard on PostgreSQL becomes the writing session's backend process id instead of the
// lead's id modulo 8 (issue 32 point 17, ADR "lead counts per database session").
//
// The triggers of 013/020 add a lead's +1 to its counter row in the lead's own transaction, so the
// counts stay exact whatever happens (a rollback or a crash takes both away). But that row stays
// locked until the lead commits, and with eight shards by id, ten pooled connections always had two
// submissions on one row: the second waited for the first's remaining statements and its commit (a
// WAL flush), one after the other, and PostgreSQL stored leads at 0.55-0.68x the rate of ac0321c,
// which had no counts. A backend runs one transaction at a time, and no two live sessions share a
// pid, so a session's counter rows are locked by that session alone: no submission, bulk action,
// import or purge ever waits on another's counter row.
//
// Sessions come and go (the pool closes idle connections), so rows of old pids pile up; a count is
// still the sum over shards. compactLeadCounts (features/leads/lead-counts.server.ts) folds the
// rows of other shards into shard 0, which no session writes (no backend has pid 0), skipping rows
// a transaction holds, so it waits on no submission either. SQLite keeps 020's row triggers and
// shards by id: one writer at a time, nothing to wait on.

const KEY = "is_spam, status, owner_id, request_type, anonymised, shard";

/** The shard of a lead row under a table alias. */
type Shard = (alias: string) => string;
const bySession: Shard = () => "pg_backend_pid()";
const byId: Shard = (alias) => `${alias}.id % 8`;

/** The lead_counts key of a lead row under `alias`, with `shard` for its last column. */
const rowWith = (shard: Shard) => (alias: string) =>
  `${alias}.is_spam, ${alias}.status, coalesce(${alias}.owner_id, 0), ${alias}.request_type,
   case when ${alias}.anonymised_at is null then 0 else 1 end, ${shard(alias)}`;

/** The three trigger functions of 013/020 (the triggers call them by name), with `shard`'s expression. */
async function writeCountFunctions(db: Kysely<unknown>, shard: Shard): Promise<void> {
  const row = rowWith(shard);
  await sql
    .raw(`
      create or replace function lead_counts_apply() returns trigger language plpgsql as $$
      begin
        insert into lead_counts (${KEY}, count)
        select is_spam, status, owner_id, request_type, anonymised, shard, sum(delta)
        from (
          select ${row("n")}, 1 as delta from lead_counts_new n
          union all
          select ${row("o")}, -1 as delta from lead_counts_old o
        ) as changes (is_spam, status, owner_id, request_type, anonymised, shard, delta)
        group by is_spam, status, owner_id, request_type, anonymised, shard
        having sum(delta) <> 0
        order by is_spam, status, owner_id, request_type, anonymised, shard
        on conflict (${KEY}) do update set count = lead_counts.count + excluded.count;
        return null;
      end $$`)
    .execute(db);
  for (const [name, table, sign] of [
    ["lead_counts_insert", "lead_counts_new", ""],
    ["lead_counts_delete", "lead_counts_old", "-"],
  ] as const)
    await sql
      .raw(`
      create or replace function ${name}() returns trigger language plpgsql as $$
      begin
        insert into lead_counts (${KEY}, count)
        select ${row("t")}, ${sign}count(*) from ${table} t
        group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
        on conflict (${KEY}) do update set count = lead_counts.count + excluded.count;
        return null;
      end $$`)
      .execute(db);
}

/** 013's id shards folded into shard 0 (as features/leads/lead-counts.server.ts does now and then). */
const FOLD_INTO_SHARD_0 = `
  with moved as (
    delete from lead_counts
    where ctid in (select ctid from lead_counts where shard <> 0 for update skip locked)
    returning is_spam, status, owner_id, request_type, anonymised, count
  )
  insert into lead_counts (${KEY}, count)
  select is_spam, status, owner_id, request_type, anonymised, 0, sum(count) from moved
  group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  on conflict (${KEY}) do update set count = lead_counts.count + excluded.count`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await writeCountFunctions(db, bySession);
  // The id shards of 013 become shard 0 (a few dozen rows).
  await sql.raw(FOLD_INTO_SHARD_0).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // The rows by session cannot be told apart by lead: counted again from the leads, as 013 did, in
  // one transaction that holds off new leads meanwhile, or a lead committed between the delete and
  // the recount would be counted twice (its own +1 and the recount's). The migrator runs this in
  // its transaction already; called on its own, it opens one.
  const recount = async (trx: Kysely<unknown>) => {
    await sql.raw("lock table leads in share mode").execute(trx);
    await writeCountFunctions(trx, byId);
    await sql.raw("delete from lead_counts").execute(trx);
    await sql
      .raw(`insert into lead_counts (${KEY}, count)
      select ${rowWith(byId)("leads")}, count(*) from leads group by 1, 2, 3, 4, 5, 6`)
      .execute(trx);
  };
  if (db.isTransaction) await recount(db);
  else await db.transaction().execute(recount);
}
