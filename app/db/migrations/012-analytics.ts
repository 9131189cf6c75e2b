import type { Kysely } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Cookieless analytics (issue 12, ADR 014): one row per counted page view, and the random salt of
// each UTC day that visitor ids are hashed with. A salt row is deleted 48 hours after it was made,
// so a visitor id can be neither reversed nor linked across days. No client address is stored.
export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("analytics_page_views"))
    /** ISO 8601 UTC, like every timestamp of the schema: sorts and ranges alike on both databases. */
    .addColumn("occurred_at", "text", (column) => column.notNull())
    .addColumn("path", "text", (column) => column.notNull())
    /** The referring page's host (this site's own host for an internal move)… */
    .addColumn("referrer_host", "text")
    /** …and its path, for referrals from other sites only (never a query string). */
    .addColumn("referrer_path", "text")
    .addColumn("utm_source", "text")
    .addColumn("utm_medium", "text")
    .addColumn("utm_campaign", "text")
    .addColumn("utm_term", "text")
    .addColumn("utm_content", "text")
    /** 1 when a gclid, fbclid or msclkid was present; the click id itself is never stored. */
    .addColumn("paid_click", "integer", (column) => column.notNull().defaultTo(0))
    /** desktop, mobile, tablet or other. */
    .addColumn("device", "text", (column) => column.notNull())
    /** A browser family from a short fixed list (user-agent.ts). */
    .addColumn("browser", "text", (column) => column.notNull())
    /** Truncated SHA-256 of the day's salt, client address, User-Agent and host. */
    .addColumn("visitor_id", "text", (column) => column.notNull())
    /** 1 for a 404: counted apart, to find broken links. */
    .addColumn("is_not_found", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  // Every report reads a time range. NOTE: no index on visitor_id yet: a random key costs each
  // insert more than the rest of the row (npm run bench:pages); attribution, which looks a visitor
  // up, will decide what it needs.
  await db.schema
    .createIndex("analytics_page_views_time_idx")
    .on("analytics_page_views")
    .column("occurred_at")
    .execute();

  await db.schema
    .createTable("analytics_salts")
    /** The UTC day, YYYY-MM-DD: one salt per day, shared by every instance. */
    .addColumn("day", "text", (column) => column.primaryKey())
    .addColumn("salt", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("analytics_salts").execute();
  await db.schema.dropTable("analytics_page_views").execute();
}
