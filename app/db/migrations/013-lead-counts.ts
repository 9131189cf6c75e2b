import { type Kysely, sql } from "kysely";
import { isPostgres } from "../migration-helpers.ts";

// How many leads there are for each combination of the list's cheap filters (spam, status, owner,
// type), kept by the database itself so the list's total and the summary strip's pipeline read a
// few rows instead of counting 100,000 index entries on every request (issue 10: 5-8 ms of the
// dashboard's 25 ms went to `count(*)`). Triggers keep it exact whatever writes the leads (the app,
// a bulk action, an erasure, a migration).
//
// `owner_id` 0 stands for "unassigned" (a primary key column cannot be null). `shard` is the lead's
// id modulo SHARDS: on PostgreSQL each insert locks its counter row until commit, and spreading
// one busy combination (new, not spam, unassigned, demo) over eight rows keeps concurrent
// submissions from queueing behind one another. A count is the sum over shards.
const SHARDS = 8;
const KEY = "is_spam, status, owner_id, request_type, shard";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("lead_counts")
    .addColumn("is_spam", "integer", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("owner_id", "integer", (column) => column.notNull())
    .addColumn("request_type", "text", (column) => column.notNull())
    .addColumn("shard", "integer", (column) => column.notNull())
    .addColumn("count", "bigint", (column) => column.notNull())
    .addPrimaryKeyConstraint("lead_counts_pk", ["is_spam", "status", "owner_id", "request_type", "shard"])
    .execute();

  const row = (alias: string) =>
    `${alias}.is_spam, ${alias}.status, coalesce(${alias}.owner_id, 0), ${alias}.request_type, ${alias}.id % ${SHARDS}`;

  if (isPostgres(db)) {
    // One statement-level trigger per event (PostgreSQL allows transition tables on single-event
    // triggers only). Each applies the statement's net change in key order, so two bulk actions
    // lock counter rows in the same order and cannot deadlock; an update that moves no lead
    // between combinations (a note, a spam score) locks nothing.
    await sql
      .raw(`
      create function lead_counts_apply() returns trigger language plpgsql as $$
      begin
        insert into lead_counts (${KEY}, count)
        select is_spam, status, owner_id, request_type, shard, sum(delta)
        from (
          select ${row("n")}, 1 as delta from lead_counts_new n
          union all
          select ${row("o")}, -1 as delta from lead_counts_old o
        ) as changes (is_spam, status, owner_id, request_type, shard, delta)
        group by is_spam, status, owner_id, request_type, shard
        having sum(delta) <> 0
        order by is_spam, status, owner_id, request_type, shard
        on conflict (${KEY}) do update set count = lead_counts.count + excluded.count;
        return null;
      end $$`)
      .execute(db);
    // Inserts and deletes have one transition table each, so they get their own functions: the
    // same statement over the new rows counted up, or the old rows counted down.
    for (const [name, table, sign] of [
      ["lead_counts_insert", "lead_counts_new", ""],
      ["lead_counts_delete", "lead_counts_old", "-"],
    ] as const)
      await sql
        .raw(`
      create function ${name}() returns trigger language plpgsql as $$
      begin
        insert into lead_counts (${KEY}, count)
        select ${row("t")}, ${sign}count(*) from ${table} t group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
        on conflict (${KEY}) do update set count = lead_counts.count + excluded.count;
        return null;
      end $$`)
        .execute(db);
    await sql
      .raw(`create trigger leads_count_insert after insert on leads
        referencing new table as lead_counts_new for each statement execute function lead_counts_insert()`)
      .execute(db);
    await sql
      .raw(`create trigger leads_count_update after update on leads
        referencing old table as lead_counts_old new table as lead_counts_new
        for each statement execute function lead_counts_apply()`)
      .execute(db);
    await sql
      .raw(`create trigger leads_count_delete after delete on leads
        referencing old table as lead_counts_old for each statement execute function lead_counts_delete()`)
      .execute(db);
  } else {
    // SQLite has row triggers only, and one writer at a time: no lock order to keep.
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
      .raw(`create trigger leads_count_update after update of is_spam, status, owner_id, request_type on leads
        when old.is_spam is not new.is_spam or old.status is not new.status
          or old.owner_id is not new.owner_id or old.request_type is not new.request_type
        begin ${add("old", -1)} ${add("new", 1)} end`)
      .execute(db);
  }

  // The leads already there.
  await sql
    .raw(`insert into lead_counts (${KEY}, count)
      select ${row("leads")}, count(*) from leads group by 1, 2, 3, 4, 5`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ["leads_count_insert", "leads_count_update", "leads_count_delete"])
    await sql.raw(`drop trigger if exists ${trigger}${isPostgres(db) ? " on leads" : ""}`).execute(db);
  if (isPostgres(db))
    for (const fn of ["lead_counts_apply", "lead_counts_insert", "lead_counts_delete"])
      await sql.raw(`drop function if exists ${fn}()`).execute(db);
  await db.schema.dropTable("lead_counts").execute();
}
