import type { Kysely } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// The back office: staff accounts, their sessions, and the history of lead status changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("users"))
    .addColumn("username", "text", (column) => column.notNull())
    // Lower-cased, so "Alice" and "alice" cannot be two accounts and login ignores case.
    .addColumn("username_key", "text", (column) => column.notNull().unique())
    .addColumn("password_hash", "text", (column) => column.notNull())
    .addColumn("is_admin", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    // SHA-256 of the cookie's token: a leaked table does not hand out live sessions.
    .addColumn("id_hash", "text", (column) => column.primaryKey())
    .addColumn("user_id", "integer", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("last_seen_at", "text", (column) => column.notNull())
    .addColumn("expires_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await autoIncrementId(db, db.schema.createTable("lead_status_changes"))
    .addColumn("lead_id", "integer", (column) => column.notNull().references("leads.id").onDelete("cascade"))
    .addColumn("from_status", "text", (column) => column.notNull())
    .addColumn("to_status", "text", (column) => column.notNull())
    .addColumn("changed_by_user_id", "integer", (column) =>
      column.references("users.id").onDelete("set null"),
    )
    // Kept as written at the time: the history stays readable after an account is removed.
    .addColumn("changed_by_username", "text", (column) => column.notNull())
    .addColumn("changed_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("lead_status_changes_lead_idx")
    .on("lead_status_changes")
    .columns(["lead_id", "changed_at"])
    .execute();
  // The dashboard sorts genuine leads newest first within a status filter too.
  await db.schema
    .createIndex("leads_spam_status_created_idx")
    .on("leads")
    .columns(["is_spam", "status", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("leads_spam_status_created_idx").execute();
  for (const table of ["lead_status_changes", "sessions", "users"])
    await db.schema.dropTable(table).execute();
}
