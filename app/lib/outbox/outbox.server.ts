import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

export const LEAD_NOTIFICATION = "lead-notification";
export type LeadNotificationPayload = { leadId: number };

/**
 * A notification of the bell by e-mail (features/notifications): its payload names the notification
 * only. Here, not in the feature, because a lead's erasure and anonymisation delete the waiting
 * ones with the lead's notifications (features/leads, which imports no other feature).
 */
export const NOTIFICATION_EMAIL = "notification-email";
export type NotificationEmailPayload = { notificationId: number };

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

/**
 * Sent messages older than `cutoff`, but for the kinds in `except` (webhook deliveries: their rows
 * are the status of the delivery log and go with it, 30 days).
 */
export type SentMessages = { cutoff: Date; except: readonly string[] };

function sentBefore(db: Kysely<Database>, { cutoff, except }: SentMessages) {
  let query = db.selectFrom("outbox").where("status", "=", "sent").where("sentAt", "<", cutoff.toISOString());
  if (except.length > 0) query = query.where("kind", "not in", except);
  return query;
}

export async function countSent(db: Kysely<Database>, which: SentMessages): Promise<number> {
  const row = await sentBefore(db, which)
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes up to `limit` of them (chosen by a read, deleted by id); how many went. */
export async function deleteSent(
  db: Kysely<Database>,
  which: SentMessages,
  limit: number,
  assertHeld: (trx: Transaction<Database>) => Promise<void>,
): Promise<number> {
  const rows = await sentBefore(db, which).select("id").orderBy("id").limit(limit).execute();
  if (rows.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    await assertHeld(trx);
    const result = await trx
      .deleteFrom("outbox")
      .where(
        "id",
        "in",
        rows.map((row) => Number(row.id)),
      )
      .where("status", "=", "sent")
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
