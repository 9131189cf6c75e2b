import type { Kysely } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 13: the staff access log. One row per security-relevant act: sign-ins and failed ones,
// session and account changes, exports (filter and row count), erasures. Kept ACCESS_LOG_DAYS.
// A lead is named by its id only (never a person's name or email), so erasing a person removes the
// rows that name their leads and nothing else needs rewriting.
export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("access_log"))
    .addColumn("occurred_at", "text", (column) => column.notNull())
    .addColumn("action", "text", (column) => column.notNull())
    /** Who acted: a staff account, or null (a failed sign-in, the command line). */
    .addColumn("actor_user_id", "integer")
    /** Their username at the time, or "command line"; for a failed sign-in the account tried, if any. */
    .addColumn("actor_username", "text")
    /** The staff account acted on (account changes, sessions). */
    .addColumn("subject_user_id", "integer")
    .addColumn("subject_username", "text")
    /** The lead acted on (an erasure). */
    .addColumn("lead_id", "integer")
    /** A short JSON object: an export's filter and row count, a sign-in's browser. */
    .addColumn("detail", "text")
    /** The client's network (203.0.113.x), never the full address. */
    .addColumn("network", "text")
    .execute();
  await db.schema
    .createIndex("access_log_time_idx")
    .on("access_log")
    .columns(["occurred_at", "id"])
    .execute();
  await db.schema.createIndex("access_log_lead_idx").on("access_log").column("lead_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("access_log").execute();
}
