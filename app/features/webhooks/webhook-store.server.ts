import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { enqueue } from "#app/lib/outbox/outbox.server.ts";
import { WEBHOOK_EVENTS, type WebhookEventType } from "./webhook-schema.ts";
import { newWebhookKey, shownWebhookSecret } from "./webhook-signature.server.ts";
import type { DeliveryStatus, Webhook, WebhookDelivery } from "./webhook-types.ts";

// Webhooks and their deliveries in the database (ADR 012). A delivery is one event for one webhook:
// its row holds the body to send and what the log shows; its outbox row carries the attempts, the
// backoff and the claim that keeps two instances from sending it at once.

type Db = Kysely<Database> | Transaction<Database>;

/** The outbox kind of a webhook delivery; its payload names the delivery, never the lead. */
export const WEBHOOK_DELIVERY = "webhook-delivery";
export type WebhookDeliveryPayload = { webhookId: number; eventId: string };

function parseEvents(text: string): WebhookEventType[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? WEBHOOK_EVENTS.filter((event) => value.includes(event)) : [];
  } catch {
    return [];
  }
}

const WEBHOOK_COLUMNS = ["id", "url", "events", "createdAt", "createdBy", "secretRotatedAt"] as const;

function toWebhook(row: {
  id: number;
  url: string;
  events: string;
  createdAt: string;
  createdBy: string;
  secretRotatedAt: string | null;
}): Webhook {
  return {
    id: Number(row.id),
    url: row.url,
    events: parseEvents(row.events),
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    secretRotatedAt: row.secretRotatedAt,
  };
}

export async function listWebhooks(db: Db): Promise<Webhook[]> {
  const rows = await db.selectFrom("webhooks").select(WEBHOOK_COLUMNS).orderBy("id").execute();
  return rows.map(toWebhook);
}

export async function findWebhook(db: Db, id: number): Promise<Webhook | undefined> {
  const row = await db.selectFrom("webhooks").select(WEBHOOK_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toWebhook(row) : undefined;
}

export async function countWebhooks(db: Db): Promise<number> {
  const row = await db
    .selectFrom("webhooks")
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Stores a webhook with a new key; its secret (`whsec_…`, the key in base64) is returned this once. */
export async function insertWebhook(
  db: Db,
  input: { url: string; events: readonly WebhookEventType[]; createdBy: string },
  now = new Date(),
): Promise<Webhook & { secret: string }> {
  const key = newWebhookKey();
  const row = await db
    .insertInto("webhooks")
    .values({
      url: input.url,
      events: JSON.stringify(input.events),
      secret: key,
      createdAt: now.toISOString(),
      createdBy: input.createdBy,
      secretRotatedAt: null,
    })
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirstOrThrow();
  return { ...toWebhook(row), secret: shownWebhookSecret(key) };
}

/**
 * A new key for the webhook, its secret (`whsec_…`) returned this once; the old one stops at once.
 * Deliveries still queued are signed with the new one when they go (signatures are made at send time).
 */
export async function rotateWebhookSecret(db: Db, id: number, now = new Date()): Promise<string | undefined> {
  const key = newWebhookKey();
  const result = await db
    .updateTable("webhooks")
    .set({ secret: key, secretRotatedAt: now.toISOString() })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? shownWebhookSecret(key) : undefined;
}

/** Deletes the webhook, its delivery log and its queued messages. False when there was none. */
export async function deleteWebhook(db: Kysely<Database>, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // NOTE: a message being sent right now finishes its attempt; its outcome then finds no row.
    await trx
      .deleteFrom("outbox")
      .where(
        "id",
        "in",
        trx
          .selectFrom("webhookDeliveries")
          .select("outboxId")
          .where("webhookId", "=", id)
          .where("outboxId", "is not", null),
      )
      .execute();
    await trx.deleteFrom("webhookDeliveries").where("webhookId", "=", id).execute();
    const result = await trx.deleteFrom("webhooks").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/**
 * Deletes the deliveries still waiting to go out with a copy of lead `leadId` in their body, and
 * their queued messages: an erased lead must not leave in a retry later. Delivered ones hold no
 * copy (their body is cleared on success). Called before `lead.deleted` is queued.
 */
export async function forgetLeadDeliveries(db: Db, leadId: number): Promise<number> {
  const pending = await db
    .selectFrom("webhookDeliveries")
    .select(["id", "outboxId", "body"])
    .where("body", "is not", null)
    .execute();
  const doomed = pending.filter((delivery) => leadIdOf(delivery.body) === leadId);
  if (doomed.length === 0) return 0;
  const outboxIds = doomed.flatMap((delivery) =>
    delivery.outboxId === null ? [] : [Number(delivery.outboxId)],
  );
  if (outboxIds.length > 0) await db.deleteFrom("outbox").where("id", "in", outboxIds).execute();
  await db
    .deleteFrom("webhookDeliveries")
    .where(
      "id",
      "in",
      doomed.map((delivery) => Number(delivery.id)),
    )
    .execute();
  return doomed.length;
}

function leadIdOf(body: string | null): number | undefined {
  try {
    const parsed = JSON.parse(body ?? "null") as { data?: { lead?: { id?: unknown } } } | null;
    const id = parsed?.data?.lead?.id;
    return typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** A webhook's id and subscribed events (JSON text), as queueWebhookEvent reads them. */
export type WebhookSubscription = { id: number | string; events: string };

export type WebhookEvent = {
  type: WebhookEventType;
  /**
   * The webhooks, when the caller already read them in this transaction (a new lead reads them in
   * its first statement, beside the erasure lookup: one statement less per submission).
   */
  webhooks?: WebhookSubscription[];
  /** The lead as the staff API returns it, or a loader for it (only called when someone subscribed). */
  lead: Record<string, unknown> | (() => Promise<Record<string, unknown> | undefined>);
  occurredAt: Date;
};

/**
 * The leads feature's entry point (wired in services.server.ts): queues one delivery per webhook
 * subscribed to the event, in the caller's transaction, so the change and its deliveries commit
 * together. Returns how many were queued. With no webhook this is one query on a table of a few
 * rows. After the commit, the caller wakes the outbox worker (AppServices.notifyOutbox).
 */
export async function queueWebhookEvent(db: Db, event: WebhookEvent): Promise<number> {
  return queueEventData(db, {
    type: event.type,
    webhooks: event.webhooks,
    data: async () => {
      const lead = typeof event.lead === "function" ? await event.lead() : event.lead;
      return lead ? { lead } : undefined;
    },
    occurredAt: event.occurredAt,
  });
}

/**
 * Any event's deliveries (the watches' `audit.alert` among them, wired in services.server.ts): one
 * per subscribed webhook, in the caller's transaction, with `data` as the body's `data`.
 */
export async function queueEventData(
  db: Db,
  event: {
    type: WebhookEventType;
    webhooks?: WebhookSubscription[];
    data: Record<string, unknown> | (() => Promise<Record<string, unknown> | undefined>);
    occurredAt: Date;
  },
): Promise<number> {
  const webhooks = event.webhooks ?? (await db.selectFrom("webhooks").select(["id", "events"]).execute());
  const subscribed = webhooks.filter((webhook) => parseEvents(webhook.events).includes(event.type));
  if (subscribed.length === 0) return 0;
  const data = typeof event.data === "function" ? await event.data() : event.data;
  if (!data) return 0;
  const eventId = randomUUID();
  const body = JSON.stringify({
    id: eventId,
    event: event.type,
    occurredAt: event.occurredAt.toISOString(),
    data,
  });
  for (const webhook of subscribed) {
    await queueDelivery(db, {
      webhookId: Number(webhook.id),
      eventId,
      eventType: event.type,
      isTest: false,
      body,
      now: event.occurredAt,
    });
  }
  return subscribed.length;
}

async function queueDelivery(
  db: Db,
  delivery: {
    webhookId: number;
    eventId: string;
    eventType: string;
    isTest: boolean;
    body: string;
    now: Date;
  },
): Promise<number> {
  const payload: WebhookDeliveryPayload = { webhookId: delivery.webhookId, eventId: delivery.eventId };
  const outboxId = await enqueue(db, WEBHOOK_DELIVERY, payload, delivery.now);
  const row = await db
    .insertInto("webhookDeliveries")
    .values({
      webhookId: delivery.webhookId,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      isTest: delivery.isTest ? 1 : 0,
      body: delivery.body,
      outboxId,
      createdAt: delivery.now.toISOString(),
      lastAttemptAt: null,
      responseStatus: null,
      responseBody: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A sample lead for "Send test event": every field says it is a test, none is a real person. */
export function sampleLead(now: Date): Record<string, unknown> {
  const at = now.toISOString();
  return {
    id: 0,
    requestType: "demo",
    fullName: "Test Lead (sample, not a real person)",
    email: "test.lead@example.com",
    company: "Example Test Ltd",
    phone: "+44 20 7946 0000",
    message: "This is a test event sent from the Clausebridge back office.",
    investorType: { angel: false, vc: false, introducer: false, other: false },
    otherDetails: null,
    sourcePage: null,
    privacyNoticeVersion: "test",
    policyVersion: "test",
    isSpam: false,
    spamReason: null,
    ownerId: null,
    ownerName: null,
    ownerDisabled: false,
    returning: false,
    status: "new",
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Queues a test event for one webhook, whatever it subscribes to: a `ping`, or a `lead.created`
 * with the sample lead. Both carry `"test": true` at the top of the body.
 */
export async function queueTestEvent(
  db: Kysely<Database>,
  webhookId: number,
  type: "ping" | "lead.created",
  now = new Date(),
): Promise<{ deliveryId: number; eventId: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    const webhook = await findWebhook(trx, webhookId);
    if (!webhook) return undefined;
    const eventId = randomUUID();
    const data =
      type === "ping"
        ? { webhook: { id: webhook.id, url: webhook.url, events: webhook.events } }
        : { lead: sampleLead(now) };
    const body = JSON.stringify({
      id: eventId,
      event: type,
      occurredAt: now.toISOString(),
      test: true,
      data,
    });
    const deliveryId = await queueDelivery(trx, {
      webhookId,
      eventId,
      eventType: type,
      isTest: true,
      body,
      now,
    });
    return { deliveryId, eventId };
  });
}

/** The webhook's latest deliveries, newest first, with their outbox state. */
export async function listDeliveries(
  db: Db,
  webhookId: number,
  { limit = 20, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<WebhookDelivery[]> {
  const rows = await db
    .selectFrom("webhookDeliveries as d")
    .leftJoin("outbox as o", "o.id", "d.outboxId")
    .select([
      "d.id",
      "d.eventId",
      "d.eventType",
      "d.isTest",
      "d.createdAt",
      "d.lastAttemptAt",
      "d.responseStatus",
      "d.responseBody",
      "o.status",
      "o.attempts",
      "o.lastError",
      "o.nextAttemptAt",
    ])
    .where("d.webhookId", "=", webhookId)
    .orderBy("d.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => {
    const attempts = Number(row.attempts ?? 0);
    const status: DeliveryStatus =
      row.status === "sent"
        ? "delivered"
        : row.status === "failed" || row.status === null
          ? "failed"
          : attempts > 0
            ? "retrying"
            : "queued";
    const waiting = status === "queued" || status === "retrying";
    return {
      id: Number(row.id),
      eventId: row.eventId,
      event: row.eventType,
      test: Boolean(row.isTest),
      status,
      attempts,
      lastError: row.lastError ?? null,
      responseStatus: row.responseStatus === null ? null : Number(row.responseStatus),
      responseBody: row.responseBody,
      createdAt: row.createdAt,
      lastAttemptAt: row.lastAttemptAt,
      nextAttemptAt: waiting && row.nextAttemptAt ? maxIso(row.nextAttemptAt, now) : null,
    };
  });
}

const maxIso = (iso: string, now: Date) => (Date.parse(iso) > now.getTime() ? iso : now.toISOString());

/** Days a delivery stays in the log; older ones, and their outbox rows, are deleted. */
export const DELIVERY_RETENTION_DAYS = 30;

/** Deletes deliveries (and their outbox rows) created before `before`; returns how many. */
export async function pruneDeliveries(db: Kysely<Database>, before: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const cutoff = before.toISOString();
    await trx
      .deleteFrom("outbox")
      .where("kind", "=", WEBHOOK_DELIVERY)
      .where("createdAt", "<", cutoff)
      .where("status", "!=", "pending")
      .execute();
    const result = await trx
      .deleteFrom("webhookDeliveries")
      .where("createdAt", "<", cutoff)
      .where((eb) =>
        eb.or([
          eb("outboxId", "is", null),
          eb.not(
            eb.exists(
              eb
                .selectFrom("outbox")
                .select("outbox.id")
                .whereRef("outbox.id", "=", "webhookDeliveries.outboxId"),
            ),
          ),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
