import type { Kysely } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 23, "the work first": views a team keeps on the lead list, and each lead's next step.
// NOTE: numbered 023 on branch i23-worklist; other branches of issue 23 add their own numbers.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A named list view: its query string (filters and sort, as the dashboard's URL holds them),
  // personal to its owner or shared with the team. "My leads" and "Unassigned" are built in, not rows.
  await autoIncrementId(db, db.schema.createTable("saved_views"))
    .addColumn("owner_user_id", "integer", (column) =>
      column.notNull().references("users.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("query", "text", (column) => column.notNull())
    /** 1: the whole team sees it; 0: only its owner. */
    .addColumn("shared", "integer", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("saved_views_owner_idx")
    .on("saved_views")
    .columns(["owner_user_id", "id"])
    .execute();
  await db.schema.createIndex("saved_views_shared_idx").on("saved_views").columns(["shared", "id"]).execute();

  // A lead's one next step (what to do, by when); its setting and clearing are in lead_events.
  await db.schema
    .createTable("lead_next_steps")
    .addColumn("lead_id", "integer", (column) =>
      column.primaryKey().references("leads.id").onDelete("cascade"),
    )
    .addColumn("body", "text", (column) => column.notNull())
    /** YYYY-MM-DD: due by the end of that day (UTC). */
    .addColumn("due_on", "text", (column) => column.notNull())
    .addColumn("set_by_user_id", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("set_by_username", "text", (column) => column.notNull())
    .addColumn("set_at", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("lead_next_steps").execute();
  await db.schema.dropTable("saved_views").execute();
}
