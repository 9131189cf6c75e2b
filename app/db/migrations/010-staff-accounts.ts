import type { Kysely } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 10, staff accounts: admins disable and enable colleagues, see when each last signed in, hand
// out one-time set-password links, and every such action is kept with who did it and when.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    // 0/1: a disabled account cannot sign in and its sessions are refused (ADR 011).
    .addColumn("disabled", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("users").addColumn("last_sign_in_at", "text").execute();

  await autoIncrementId(db, db.schema.createTable("staff_events"))
    // The account the action was about.
    .addColumn("user_id", "integer", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("action", "text", (column) => column.notNull())
    // Null for the operator's command line; the name stays as written at the time.
    .addColumn("actor_user_id", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("actor_username", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("staff_events_created_idx").on("staff_events").column("created_at").execute();
  await db.schema
    .createIndex("staff_events_user_idx")
    .on("staff_events")
    .columns(["user_id", "created_at"])
    .execute();

  await db.schema
    .createTable("set_password_links")
    // SHA-256 of the link's random token: a leaked table opens no account.
    .addColumn("token_hash", "text", (column) => column.primaryKey())
    .addColumn("user_id", "integer", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_by_user_id", "integer", (column) =>
      column.references("users.id").onDelete("set null"),
    )
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("expires_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("set_password_links_user_idx")
    .on("set_password_links")
    .column("user_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("set_password_links").execute();
  await db.schema.dropTable("staff_events").execute();
  await db.schema.alterTable("users").dropColumn("last_sign_in_at").execute();
  await db.schema.alterTable("users").dropColumn("disabled").execute();
}
