import type { Kysely } from "kysely";

// Retention of page views (issue 12): raw views are kept ANALYTICS_RAW_DAYS, then each UTC day is
// rolled up into the two tables below, which are kept, and its raw views are deleted
// (features/analytics/rollup.server.ts). Shaped for the reports: a 12-month period reads at most 365
// rows of totals and, per table of the report, the rows of one dimension over a day range (the
// primary key's order), summed by value; the recent days come from the raw views.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("analytics_daily_totals")
    /** The UTC day, YYYY-MM-DD. */
    .addColumn("day", "text", (column) => column.primaryKey())
    .addColumn("views", "integer", (column) => column.notNull())
    /** Distinct visitor ids that day (a visitor id lives one day: days add up). */
    .addColumn("visitors", "integer", (column) => column.notNull())
    .addColumn("not_found_views", "integer", (column) => column.notNull())
    /** The highest raw view id rolled into this day: rows up to it are counted and may be deleted. */
    .addColumn("rolled_through_id", "bigint", (column) => column.notNull())
    .addColumn("rolled_at", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("analytics_daily_counts")
    /**
     * page (path of a page that was not a 404), entry_page (path of a visitor's first view),
     * not_found (path of a 404), and, from each visitor's first view of the day: referrer (another
     * site's host), channel, campaign (utm_campaign), source (utm_source), medium (utm_medium),
     * device and browser.
     */
    .addColumn("dimension", "text", (column) => column.notNull())
    .addColumn("day", "text", (column) => column.notNull())
    .addColumn("value", "text", (column) => column.notNull())
    /** page, not_found: views of the path; the others: every view of the visitors counted. */
    .addColumn("views", "integer", (column) => column.notNull())
    /** Distinct visitors that day with this value. */
    .addColumn("visitors", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("analytics_daily_counts_pk", ["dimension", "day", "value"])
    .execute();

  // Rolling up runs on one instance at a time: the instance whose lease this row holds.
  await db.schema
    .createTable("analytics_jobs")
    .addColumn("name", "text", (column) => column.primaryKey())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "text")
    .addColumn("finished_at", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("analytics_jobs").execute();
  await db.schema.dropTable("analytics_daily_counts").execute();
  await db.schema.dropTable("analytics_daily_totals").execute();
}
