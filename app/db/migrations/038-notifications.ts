import { type Kysely, sql } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 35, the frame's notifications (ADR 043): what the bell in the back office lists for one person.
//
// - `notifications`: one row per person and thing to tell them. `kind` names its producer
//   ("lead.assigned", "meeting.booked", "watch.alert", "task.due", …), `title` is its sentence with no
//   personal data of a lead or attendee (the list adds the lead's name from `lead_id` as it is now, so
//   an anonymised or erased lead's name never lingers here), `link` the back-office page it opens.
//   `lead_id` and `subject_id` (the meeting's, the alert's or the task's id) say what it is about.
// - `dedupe_key`, unique per person: a producer names the event (e.g. "meeting.booked:7"), so
//   running twice, on two instances or in a retried transaction, tells the person once.
// - The bell's count reads the person's unread rows through a partial index (read_at is null).
// - `users.email_on_assignment`, `users.email_on_task_due`: the person's choice to also get these by
//   e-mail (off by default), set on /admin/account.
export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("notifications"))
    .addColumn("user_id", "integer", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (column) => column.notNull())
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("link", "text", (column) => column.notNull())
    .addColumn("lead_id", "integer")
    .addColumn("subject_id", "integer")
    .addColumn("dedupe_key", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("read_at", "text")
    .execute();
  await db.schema
    .createIndex("notifications_user_dedupe_idx")
    .on("notifications")
    .columns(["user_id", "dedupe_key"])
    .unique()
    .execute();
  await db.schema
    .createIndex("notifications_user_unread_idx")
    .on("notifications")
    .columns(["user_id", "id"])
    .where(sql.ref("read_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("notifications_user_idx")
    .on("notifications")
    .columns(["user_id", "id"])
    .execute();
  // Erasing a lead drops what was said about it.
  await db.schema.createIndex("notifications_lead_idx").on("notifications").column("lead_id").execute();
  for (const column of ["email_on_assignment", "email_on_task_due"])
    await db.schema
      .alterTable("users")
      .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["email_on_task_due", "email_on_assignment"])
    await db.schema.alterTable("users").dropColumn(column).execute();
  await db.schema.dropTable("notifications").execute();
}
