import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

export const LEAD_NOTIFICATION = "lead-notification";
export type LeadNotificationPayload = { leadId: number };

/**
 * Queues a message in the same transaction as the row it is about: the lead and its notification
 * are stored together or not at all, and sending happens later, off the request path.
 */
export async function enqueue(
  db: Kysely<Database> | Transaction<Database>,
  kind: string,
  payload: unknown,
  now: Date,
): Promise<number> {
  const timestamp = now.toISOString();
  const row = await db
    .insertInto("outbox")
    .values({
      kind,
      payload: JSON.stringify(payload),
      nextAttemptAt: timestamp,
      lockedUntil: null,
      lastError: null,
      createdAt: timestamp,
      sentAt: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
