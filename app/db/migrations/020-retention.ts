import { type Kysely, sql } from "kysely";
import { isPostgres } from "../migration-helpers.ts";
import { up as createLeadCounts013 } from "./013-lead-counts.ts";

// Retention and the privacy policy's changes (issue 13, docs/operations.md "Retention"):
//
// - `leads.anonymised_at`: a lead past LEAD_RETENTION_MONTHS keeps its row, so the summary strip's
//   pipeline and the analytics still count it, but loses everything that names the person and
//   leaves the list, the export and the people search (features/leads/lead-retention.server.ts).
// - `lead_counts` gains `anonymised` (0/1) in its key: the list's total counts the leads it shows
//   (not anonymised), the pipeline counts them all. The triggers of 013 are rebuilt with it, on
//   both databases, from the same template.
// - `leads.policy_version`: the date (YYYY-MM-DD) of the latest change to the privacy policy the
//   visitor was shown (lib/site/privacy-changes.ts). Leads from before it were shown the
//   policy of 1 April 2025 without changes.
// - `leads_spam_created_idx` gets anonymised_at at its end (below).
// - `job_leases`: background jobs that one instance at a time runs (the daily purge and the
//   analytics rollup), with the time and counts of their last run. It replaces 017's
//   `analytics_jobs`, which held only the rollup's lease: a lease there is at most five minutes of
//   state, so the table goes without copying it (a rollup running during the upgrade finishes its
//   day and fails to release; the next run takes the new lease).

const SHARDS = 8;
const KEY = "is_spam, status, owner_id, request_type, anonymised, shard";
const FIRST_POLICY_VERSION = "2025-04-01";

/** The lead_counts key of a lead row under `alias` (new, old, a transition table). */
const row = (alias: string) =>
  `${alias}.is_spam, ${alias}.status, coalesce(${alias}.owner_id, 0), ${alias}.request_type,
   case when ${alias}.anonymised_at is null then 0 else 1 end, ${alias}.id % ${SHARDS}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("leads").addColumn("anonymised_at", "text").execute();
  await db.schema
    .alterTable("leads")
    .addColumn("policy_version", "text", (column) => column.notNull().defaultTo(FIRST_POLICY_VERSION))
    .execute();

  // The list's date filter counts from this index alone: with anonymised_at in it, leaving
  // anonymised leads out needs no look-up of each row (the leading columns, and so every use, stay).
  await db.schema.dropIndex("leads_spam_created_idx").execute();
  await db.schema
    .createIndex("leads_spam_created_idx")
    .on("leads")
    .columns(["is_spam", "created_at", "anonymised_at"])
    .execute();

  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (column) => column.primaryKey())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "text")
    .addColumn("finished_at", "text")
    /** What the last finished run did, as JSON counts (never personal data). */
    .addColumn("last_result", "text")
    .execute();
  await db.schema.dropTable("analytics_jobs").execute();

  if (isPostgres(db)) {
    // Every existing lead is not anonymised: the new key column starts at 0 everywhere.
    await sql.raw("alter table lead_counts add column anonymised integer not null default 0").execute(db);
    await sql.raw("alter table lead_counts drop constraint lead_counts_pk").execute(db);
    await sql.raw(`alter table lead_counts add constraint lead_counts_pk primary key (${KEY})`).execute(db);
    // The functions of 013 with the new key (the triggers call them by name, so they stay).
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
    return;
  }

  // SQLite cannot change a primary key: the table is rebuilt (a few hundred rows at most) and its
  // row triggers written again with the new key.
  for (const trigger of ["leads_count_insert", "leads_count_update", "leads_count_delete"])
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  await sql
    .raw(`create table lead_counts_020 (
      is_spam integer not null, status text not null, owner_id integer not null,
      request_type text not null, anonymised integer not null, shard integer not null,
      count bigint not null,
      constraint lead_counts_pk primary key (${KEY}))`)
    .execute(db);
  await sql
    .raw(`insert into lead_counts_020 (${KEY}, count)
      select is_spam, status, owner_id, request_type, 0, shard, count from lead_counts`)
    .execute(db);
  await sql.raw("drop table lead_counts").execute(db);
  await sql.raw("alter table lead_counts_020 rename to lead_counts").execute(db);
  const add = (alias: string, delta: number) => `
    insert into lead_counts (${KEY}, count) values (${row(alias)}, ${delta})
    on conflict (${KEY}) do update set count = count + ${delta};`;
  await sql
    .raw(`create trigger leads_count_insert after insert on leads begin ${add("new", 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger leads_count_delete after delete on leads begin ${add("old", -1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger leads_count_update
      after update of is_spam, status, owner_id, request_type, anonymised_at on leads
      when old.is_spam is not new.is_spam or old.status is not new.status
        or old.owner_id is not new.owner_id or old.request_type is not new.request_type
        or (old.anonymised_at is null) is not (new.anonymised_at is null)
      begin ${add("old", -1)} ${add("new", 1)} end`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Only for tests of the migrations themselves: 013's shape again, anonymised leads counted as others.
  await db.schema.dropTable("job_leases").execute();
  await db.schema
    .createTable("analytics_jobs")
    .addColumn("name", "text", (column) => column.primaryKey())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "text")
    .addColumn("finished_at", "text")
    .execute();
  for (const trigger of ["leads_count_insert", "leads_count_update", "leads_count_delete"])
    await sql.raw(`drop trigger if exists ${trigger}${isPostgres(db) ? " on leads" : ""}`).execute(db);
  if (isPostgres(db))
    for (const fn of ["lead_counts_apply", "lead_counts_insert", "lead_counts_delete"])
      await sql.raw(`drop function if exists ${fn}()`).execute(db);
  await db.schema.dropTable("lead_counts").execute();
  await db.schema.dropIndex("leads_spam_created_idx").execute();
  await db.schema
    .createIndex("leads_spam_created_idx")
    .on("leads")
    .columns(["is_spam", "created_at"])
    .execute();
  await db.schema.alterTable("leads").dropColumn("policy_version").execute();
  await db.schema.alterTable("leads").dropColumn("anonymised_at").execute();
  await createLeadCounts013(db);
}
