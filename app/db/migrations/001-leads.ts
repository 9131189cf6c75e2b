import { type Kysely, sql } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// The first schema: settings (the generated application secret), leads, the notification outbox
// and the shared rate-limit counters.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("app_settings")
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("value", "text", (column) => column.notNull())
    .execute();

  await autoIncrementId(db, db.schema.createTable("leads"))
    .addColumn("request_type", "text", (column) =>
      column.notNull().check(sql`request_type in ('demo', 'investor')`),
    )
    .addColumn("full_name", "text", (column) => column.notNull())
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("company", "text", (column) => column.notNull())
    .addColumn("phone", "text", (column) => column.notNull())
    .addColumn("message", "text")
    .addColumn("investor_angel", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("investor_vc", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("investor_introducer", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("investor_other", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("other_details", "text")
    .addColumn("source_page", "text")
    .addColumn("privacy_notice_version", "text", (column) => column.notNull())
    .addColumn("is_spam", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("spam_reason", "text")
    .addColumn("status", "text", (column) =>
      column
        .notNull()
        .defaultTo("new")
        .check(sql`status in ('new', 'contacted', 'qualified', 'unqualified', 'customer')`),
    )
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  // The default lead list: genuine leads, newest first.
  await db.schema
    .createIndex("leads_spam_created_idx")
    .on("leads")
    .columns(["is_spam", "created_at"])
    .execute();
  await db.schema.createIndex("leads_status_idx").on("leads").columns(["status", "created_at"]).execute();

  await autoIncrementId(db, db.schema.createTable("outbox"))
    .addColumn("kind", "text", (column) => column.notNull())
    .addColumn("payload", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) =>
      column.notNull().defaultTo("pending").check(sql`status in ('pending', 'sent', 'failed')`),
    )
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (column) => column.notNull())
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema.createIndex("outbox_due_idx").on("outbox").columns(["status", "next_attempt_at"]).execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("window_id", "integer", (column) => column.notNull())
    .addColumn("hits", "integer", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["rate_limits", "outbox", "leads", "app_settings"])
    await db.schema.dropTable(table).execute();
}
