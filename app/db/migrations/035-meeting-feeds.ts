import type { Kysely } from "kysely";

// Issue 34: a host's private iCalendar feed of their meetings (features/meetings/meeting-feed), for
// calendars without CalDAV. The feed's link is signed with the app secret and this row's `version`;
// "Reset feed link" adds one, so every link handed out before stops working. No row: version 0.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("meeting_feeds")
    .addColumn("user_id", "integer", (column) =>
      column.primaryKey().references("users.id").onDelete("cascade"),
    )
    .addColumn("version", "integer", (column) => column.notNull())
    .addColumn("reset_at", "text", (column) => column.notNull())
    .execute();
}
