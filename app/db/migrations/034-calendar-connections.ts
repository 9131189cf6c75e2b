import type { Kysely } from "kysely";

// Issue 34, real calendars: a host connects a CalDAV calendar (features/meetings/caldav).
//
// - `calendar_connections`: one per host. The calendar collection's URL, the user name and the app
//   password sealed with AES-256-GCM under a key derived from the app secret (lib/sealed-secret);
//   when its busy times were last read (`refreshed_at`), last tried (`attempted_at`, which also keeps
//   other instances from reading it at the same moment) and the last failure, for staff.
// - `calendar_busy`: the busy times last read from the host's calendar, ISO 8601 UTC like `meetings`;
//   replaced as a whole at each refresh.
// - `calendar_events`: where each meeting was written (its host's calendar and the resource's URL),
//   so a move to another host or a cancellation removes it there.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("calendar_connections")
    .addColumn("user_id", "integer", (column) =>
      column.primaryKey().references("users.id").onDelete("cascade"),
    )
    .addColumn("url", "text", (column) => column.notNull())
    .addColumn("username", "text", (column) => column.notNull())
    .addColumn("password_sealed", "text", (column) => column.notNull())
    .addColumn("connected_at", "text", (column) => column.notNull())
    .addColumn("attempted_at", "text")
    .addColumn("refreshed_at", "text")
    .addColumn("last_error", "text")
    .addColumn("last_error_at", "text")
    .execute();

  await db.schema
    .createTable("calendar_busy")
    .addColumn("host_id", "integer", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("start_at", "text", (column) => column.notNull())
    .addColumn("end_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("calendar_busy_host_start")
    .on("calendar_busy")
    .columns(["host_id", "start_at"])
    .execute();

  await db.schema
    .createTable("calendar_events")
    .addColumn("meeting_id", "integer", (column) =>
      column.primaryKey().references("meetings.id").onDelete("cascade"),
    )
    .addColumn("host_id", "integer", (column) => column.notNull())
    .addColumn("href", "text", (column) => column.notNull())
    .addColumn("etag", "text")
    .addColumn("written_at", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("calendar_events").execute();
  await db.schema.dropTable("calendar_busy").execute();
  await db.schema.dropTable("calendar_connections").execute();
}
