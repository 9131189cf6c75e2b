import { type Kysely, sql } from "kysely";

// Issue 34, reminders and the privacy of meetings:
//
// - `scheduled_at`: when the meeting got its current time (booked, or last moved). A reminder goes
//   only when the meeting was scheduled at least that long before it (a meeting booked 3 hours ahead
//   gets the one-hour reminder, not the 24-hour one). Existing meetings take their last change.
// - `day_reminder_at` (24 hours before) and `hour_reminder_at` (one hour before): when each reminder
//   was queued. The sweep claims a reminder by setting its column where it is still null (one
//   conditional update: of two instances sweeping at once, one wins); a move clears both, so the new
//   time gets its own.
// - `links_origin`: the site's address the booking's e-mails linked to (PUBLIC_URL, or the booking
//   request's origin), for the reminders' manage link when PUBLIC_URL is not set.
// - `attendee_erased_at`: when the attendee's name, e-mail, company and phone were cleared (the
//   person's erasure, or their lead's anonymisation by the retention policy).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("meetings")
    .addColumn("scheduled_at", "text", (column) => column.notNull().defaultTo(""))
    .execute();
  await sql`update meetings set scheduled_at = updated_at`.execute(db);
  for (const column of ["day_reminder_at", "hour_reminder_at", "links_origin", "attendee_erased_at"])
    await db.schema.alterTable("meetings").addColumn(column, "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    "attendee_erased_at",
    "links_origin",
    "hour_reminder_at",
    "day_reminder_at",
    "scheduled_at",
  ])
    await db.schema.alterTable("meetings").dropColumn(column).execute();
}
