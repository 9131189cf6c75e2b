import { type Kysely, sql } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 25, watches: sites the audits check on a schedule, every run kept, alerts when one gets worse
// (ADR 030).
//
// - `watches`: the address, the checks (JSON array), how often, who gets the alert emails (JSON
//   array), paused or not, and `next_run_at`, the one column the scheduler of every instance reads.
//   A run claims the watch through `job_leases` (name `watch:<id>`), so two instances never run the
//   same watch at once; `next_run_at` only moves forward in the transaction that stores the run.
// - `watch_runs`: every run, its checks' results as the pages show them (JSON), and the few numbers
//   the trend charts and alerts read as columns of their own.
// - `watch_alerts`: a condition (e.g. "security-grade-drop") opened by one run and resolved by a
//   later one. The partial unique index allows one open alert per watch and condition: an instance
//   that raced another to open the same alert fails its transaction, and with it the notices it
//   queued, so each alert is notified once.
// NOTE: numbered 030 on branch watches; 028/029 are left to the lab and TLS branches.

export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("watches"))
    .addColumn("url", "text", (column) => column.notNull())
    .addColumn("checks", "text", (column) => column.notNull())
    .addColumn("every", "text", (column) =>
      column.notNull().check(sql`every in ('hourly', 'daily', 'weekly')`),
    )
    .addColumn("recipients", "text", (column) => column.notNull().defaultTo("[]"))
    .addColumn("paused", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("next_run_at", "text", (column) => column.notNull())
    .addColumn("last_run_at", "text")
    .addColumn("last_status", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("created_by", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  // The scheduler's question on every instance: which active watches are due.
  await db.schema.createIndex("watches_due").on("watches").columns(["paused", "next_run_at"]).execute();

  await autoIncrementId(db, db.schema.createTable("watch_runs"))
    .addColumn("watch_id", "integer", (column) =>
      column.notNull().references("watches.id").onDelete("cascade"),
    )
    .addColumn("trigger", "text", (column) => column.notNull().check(sql`trigger in ('schedule', 'manual')`))
    .addColumn("started_at", "text", (column) => column.notNull())
    .addColumn("finished_at", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) =>
      column.notNull().check(sql`status in ('ok', 'partial', 'failed')`),
    )
    .addColumn("results", "text", (column) => column.notNull())
    .addColumn("security_score", "integer")
    .addColumn("security_grade", "text")
    .addColumn("http_status", "integer")
    .addColumn("load_time_ms", "integer")
    .addColumn("lab_score", "integer")
    .addColumn("lcp_ms", "real")
    .addColumn("cls", "real")
    .addColumn("tbt_ms", "real")
    .addColumn("tls_days_left", "integer")
    .addColumn("tls_verified", "integer")
    .execute();
  await db.schema
    .createIndex("watch_runs_watch")
    .on("watch_runs")
    .columns(["watch_id", "started_at", "id"])
    .execute();

  await autoIncrementId(db, db.schema.createTable("watch_alerts"))
    .addColumn("watch_id", "integer", (column) =>
      column.notNull().references("watches.id").onDelete("cascade"),
    )
    .addColumn("condition", "text", (column) => column.notNull())
    .addColumn("message", "text", (column) => column.notNull())
    /** JSON: the values that opened it (the grade before and after, the days left…). */
    .addColumn("detail", "text", (column) => column.notNull())
    .addColumn("opened_at", "text", (column) => column.notNull())
    .addColumn("opened_run_id", "integer")
    .addColumn("resolved_at", "text")
    .addColumn("resolved_run_id", "integer")
    .addColumn("resolved_message", "text")
    /** How many notices (emails, webhook deliveries) the opening and the resolution queued. */
    .addColumn("opened_notices", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("resolved_notices", "integer")
    .execute();
  await db.schema
    .createIndex("watch_alerts_one_open")
    .unique()
    .on("watch_alerts")
    .columns(["watch_id", "condition"])
    .where(sql.ref("resolved_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("watch_alerts_watch")
    .on("watch_alerts")
    .columns(["watch_id", "opened_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("watch_alerts").execute();
  await db.schema.dropTable("watch_runs").execute();
  await db.schema.dropTable("watches").execute();
}
