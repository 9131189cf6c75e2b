import { type Kysely, sql } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 34, scheduling: prospects book a demo or an investor call on the team's calendars (ADR 039).
//
// - `users.email`: a host needs an address for invitations and reminders.
// - `booking_profiles`: a host's working hours (JSON, wall times per weekday), time zone, days off,
//   buffers, notice, horizon and daily maximum. No row means the defaults (Monday to Friday,
//   09:00-17:00 Europe/London), so a new install offers times with no set-up.
// - `meeting_types`: "Product demo" and "Investor call" out of the box; `host_ids` null means every
//   admin and sales account hosts it.
// - `meetings`: one booked meeting, its attendee (as they typed it), its lead, its iCalendar UID and
//   SEQUENCE.
// - `meeting_blocks`: the database's guard against double booking. A meeting holds one row per five
//   minutes from its start to its end plus the host's buffer, and (host_id, block_start) is the
//   primary key: of two bookings that overlap, the second insert conflicts, on PostgreSQL across
//   instances as on SQLite, whatever each checked before. Cancelling deletes the rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("email", "text").execute();

  await db.schema
    .createTable("booking_profiles")
    .addColumn("user_id", "integer", (column) =>
      column.primaryKey().references("users.id").onDelete("cascade"),
    )
    .addColumn("time_zone", "text", (column) => column.notNull())
    /** JSON: { "mon": [{ "start": "09:00", "end": "17:00" }], … }. */
    .addColumn("weekly_hours", "text", (column) => column.notNull())
    /** JSON: ["2026-12-25", …], dates in the profile's zone. */
    .addColumn("days_off", "text", (column) => column.notNull().defaultTo("[]"))
    .addColumn("buffer_before_minutes", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("buffer_after_minutes", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("minimum_notice_minutes", "integer", (column) => column.notNull())
    .addColumn("horizon_days", "integer", (column) => column.notNull())
    .addColumn("max_per_day", "integer", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("updated_by", "integer")
    .execute();

  await autoIncrementId(db, db.schema.createTable("meeting_types"))
    .addColumn("slug", "text", (column) => column.notNull().unique())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("duration_minutes", "integer", (column) => column.notNull())
    .addColumn("host_choice", "text", (column) =>
      column.notNull().check(sql`host_choice in ('round_robin', 'owner_first')`),
    )
    /** JSON array of user ids; null: every admin and sales account. */
    .addColumn("host_ids", "text")
    .addColumn("active", "integer", (column) => column.notNull().defaultTo(1))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  const now = new Date().toISOString();
  await db
    .insertInto("meeting_types" as never)
    .values([
      {
        slug: "demo",
        name: "Product demo",
        duration_minutes: 30,
        host_choice: "owner_first",
        created_at: now,
        updated_at: now,
      },
      {
        slug: "investor",
        name: "Investor call",
        duration_minutes: 30,
        host_choice: "round_robin",
        created_at: now,
        updated_at: now,
      },
    ] as never)
    .execute();

  await autoIncrementId(db, db.schema.createTable("meetings"))
    .addColumn("type_id", "integer", (column) => column.notNull().references("meeting_types.id"))
    .addColumn("host_id", "integer", (column) => column.notNull().references("users.id"))
    .addColumn("lead_id", "integer", (column) => column.references("leads.id").onDelete("set null"))
    .addColumn("status", "text", (column) =>
      column.notNull().check(sql`status in ('booked', 'cancelled', 'held', 'no_show')`),
    )
    .addColumn("start_at", "text", (column) => column.notNull())
    .addColumn("end_at", "text", (column) => column.notNull())
    .addColumn("uid", "text", (column) => column.notNull().unique())
    .addColumn("sequence", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("full_name", "text", (column) => column.notNull())
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("company", "text", (column) => column.notNull())
    .addColumn("phone", "text")
    .addColumn("time_zone", "text", (column) => column.notNull())
    .addColumn("source", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("cancelled_at", "text")
    .execute();
  // Meetings pages and slot queries: a host's meetings in a period; round robin's counts.
  await db.schema
    .createIndex("meetings_host_start")
    .on("meetings")
    .columns(["host_id", "start_at"])
    .execute();
  await db.schema.createIndex("meetings_start").on("meetings").columns(["start_at"]).execute();
  await db.schema.createIndex("meetings_lead").on("meetings").columns(["lead_id"]).execute();

  await db.schema
    .createTable("meeting_blocks")
    .addColumn("host_id", "integer", (column) => column.notNull())
    /** ISO 8601 UTC, a multiple of five minutes. */
    .addColumn("block_start", "text", (column) => column.notNull())
    .addColumn("meeting_id", "integer", (column) =>
      column.notNull().references("meetings.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("meeting_blocks_pk", ["host_id", "block_start"])
    .execute();
  await db.schema
    .createIndex("meeting_blocks_meeting")
    .on("meeting_blocks")
    .columns(["meeting_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("meeting_blocks").execute();
  await db.schema.dropTable("meetings").execute();
  await db.schema.dropTable("meeting_types").execute();
  await db.schema.dropTable("booking_profiles").execute();
  await db.schema.alterTable("users").dropColumn("email").execute();
}
