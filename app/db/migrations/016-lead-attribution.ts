import { type Kysely, sql } from "kysely";

// Attribution on every lead (issue 12): each lead gets one row saying where its visit came from. At
// submission the row is `pending` and holds only the visitor's hash of the day (never an address);
// once the views have settled (analytics/lead-attribution.server.ts) it is `linked`, with what the
// visitor's first page view of the day carried, or `unknown`, and the hash is cleared. Erased with
// the lead (the foreign key on PostgreSQL; the lead's erasure deletes it explicitly on SQLite, whose
// foreign keys are not enforced here).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("lead_attributions")
    .addColumn("lead_id", "integer", (column) =>
      column.primaryKey().references("leads.id").onDelete("cascade"),
    )
    /** pending, linked or unknown. */
    .addColumn("status", "text", (column) => column.notNull())
    /** The visitor id (daily-salt hash) while pending; null once settled. */
    .addColumn("visitor_id", "text")
    /** The lead's submission time (ISO UTC): the lookup's upper bound and its UTC day. */
    .addColumn("submitted_at", "text", (column) => column.notNull())
    .addColumn("landing_page", "text")
    .addColumn("referrer_host", "text")
    .addColumn("referrer_path", "text")
    /** One of the channels of app/lib/attribution.ts; null while pending. */
    .addColumn("channel", "text")
    .addColumn("utm_source", "text")
    .addColumn("utm_medium", "text")
    .addColumn("utm_campaign", "text")
    .addColumn("utm_term", "text")
    .addColumn("utm_content", "text")
    .addColumn("landed_at", "text")
    .addColumn("pages_before_submit", "integer")
    .addColumn("seconds_to_submit", "integer")
    .addColumn("resolved_at", "text")
    .execute();
  // The rows still to settle, oldest first: a partial index, so settled rows cost it nothing.
  await db.schema
    .createIndex("lead_attributions_pending_idx")
    .on("lead_attributions")
    .column("submitted_at")
    .where(sql.ref("status"), "=", "pending")
    .execute();
  // The lead list's channel and campaign filters.
  await db.schema
    .createIndex("lead_attributions_channel_idx")
    .on("lead_attributions")
    .columns(["channel", "lead_id"])
    .execute();
  // Leads from before attribution: nothing can be linked to them any more.
  await sql`insert into lead_attributions (lead_id, status, submitted_at, channel)
    select id, 'unknown', created_at, 'Unknown' from leads`.execute(db);

  // Finding a visitor's first page view of the day and counting the views before a lead: an index
  // range instead of a scan of the whole day. NOTE: ADR 014 left it out for its insert cost (a
  // random key); measured with it in docs/performance.md (npm run bench:pages).
  await db.schema
    .createIndex("analytics_page_views_visitor_idx")
    .on("analytics_page_views")
    .columns(["visitor_id", "occurred_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("analytics_page_views_visitor_idx").execute();
  await db.schema.dropTable("lead_attributions").execute();
}
