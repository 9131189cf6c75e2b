import type { Kysely } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Outgoing webhooks (issue 10, ADR 012): the endpoints staff configure, and one delivery row per
// event and endpoint. The outbox carries the retries (its payload names the delivery); the delivery
// row keeps what the log shows and the exact body to send, dropped once delivered.
export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("webhooks"))
    .addColumn("url", "text", (column) => column.notNull())
    /** The subscribed event types as a JSON array of strings. */
    .addColumn("events", "text", (column) => column.notNull())
    /** The signing secret itself (it must be usable to sign): never shown after creation or rotation. */
    .addColumn("secret", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("created_by", "text", (column) => column.notNull())
    .addColumn("secret_rotated_at", "text")
    .execute();

  await autoIncrementId(db, db.schema.createTable("webhook_deliveries"))
    .addColumn("webhook_id", "integer", (column) =>
      column.notNull().references("webhooks.id").onDelete("cascade"),
    )
    /** X-Clausebridge-Event-Id: the same for every endpoint that receives the event. */
    .addColumn("event_id", "text", (column) => column.notNull())
    .addColumn("event_type", "text", (column) => column.notNull())
    .addColumn("is_test", "integer", (column) => column.notNull().defaultTo(0))
    /** The JSON body, fixed when queued so every attempt sends the same; null once delivered. */
    .addColumn("body", "text")
    .addColumn("outbox_id", "integer")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("last_attempt_at", "text")
    .addColumn("response_status", "integer")
    /** The start of the receiver's last answer (at most 4 KB), for the log. */
    .addColumn("response_body", "text")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_event_idx")
    .on("webhook_deliveries")
    .columns(["webhook_id", "event_id"])
    .unique()
    .execute();
  // The log, newest first per webhook, and the pruning of old rows.
  await db.schema
    .createIndex("webhook_deliveries_log_idx")
    .on("webhook_deliveries")
    .columns(["webhook_id", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_created_idx")
    .on("webhook_deliveries")
    .column("created_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhooks").execute();
}
