import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import {
  type OutboxMessage,
  type OutboxSend,
  PermanentSendError,
} from "#app/lib/outbox/outbox-worker.server.ts";
import type { Connector, Resolver } from "#app/lib/safe-fetch/safe-connect.server.ts";
import type { AllowPrivate } from "#app/lib/safe-fetch/target-policy.server.ts";
import { DELIVERY_TIMEOUT_MS, postWebhook } from "./webhook-http.server.ts";
import { deliveryHeaders } from "./webhook-signature.server.ts";
import type { WebhookDeliveryPayload } from "./webhook-store.server.ts";

export type WebhookSenderOptions = {
  db: Kysely<Database>;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: off, only public addresses are reached. */
  allowPrivate?: AllowPrivate;
  resolve?: Resolver;
  connect?: Connector;
  ca?: string | Buffer | (string | Buffer)[];
  timeoutMs?: number;
  now?: () => Date;
};

// Control characters (but tab and line breaks) in a receiver's answer: PostgreSQL refuses NUL, and
// none has a place in the log.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Turns a claimed webhook-delivery message into one signed POST. The signatures and their timestamp
 * are made now, at each attempt, so a retry passes the receiver's 5-minute window and a rotated secret
 * applies to deliveries still queued. A non-2xx answer, a 3xx included (redirects are not followed),
 * throws, and the outbox retries with its backoff. Errors name the status or the network failure,
 * never the body or the secret: they reach the server log.
 */
export function createWebhookSender({
  db,
  allowPrivate = false,
  resolve,
  connect,
  ca,
  timeoutMs = DELIVERY_TIMEOUT_MS,
  now = () => new Date(),
}: WebhookSenderOptions): OutboxSend {
  return async (message: OutboxMessage) => {
    const payload = message.payload as Partial<WebhookDeliveryPayload> | null;
    const webhookId = Number(payload?.webhookId);
    const eventId = payload?.eventId;
    if (!Number.isInteger(webhookId) || typeof eventId !== "string") {
      throw new PermanentSendError("payload names no delivery");
    }
    const delivery = await db
      .selectFrom("webhookDeliveries as d")
      .innerJoin("webhooks as w", "w.id", "d.webhookId")
      .select(["d.id", "d.eventType", "d.body", "w.url", "w.secret"])
      .where("d.webhookId", "=", webhookId)
      .where("d.eventId", "=", eventId)
      .executeTakeFirst();
    if (!delivery) throw new PermanentSendError("the webhook or its delivery no longer exists");
    // Delivered by an attempt whose outcome was not recorded (the process stopped in between).
    if (delivery.body === null) return;

    const attemptAt = now();
    const timestamp = Math.floor(attemptAt.getTime() / 1000);
    const record = (response: { status: number; body: string } | null) =>
      db
        .updateTable("webhookDeliveries")
        .set({
          lastAttemptAt: attemptAt.toISOString(),
          responseStatus: response?.status ?? null,
          responseBody: response ? response.body.replace(UNPRINTABLE, "\uFFFD") : null,
          // Delivered: the copy of the lead has done its job.
          ...(response && isSuccess(response.status) ? { body: null } : {}),
        })
        .where("id", "=", delivery.id)
        .execute();

    let answer: { status: number; body: string };
    try {
      answer = await postWebhook(delivery.url, {
        body: delivery.body,
        // Standard Webhooks' headers and Clausebridge's, one key, one timestamp; the event id is
        // both webhook-id and X-Clausebridge-Event-Id, so it is the same at every retry.
        headers: deliveryHeaders({
          key: delivery.secret,
          eventId,
          eventType: delivery.eventType,
          timestamp,
          body: delivery.body,
        }),
        allowPrivate,
        resolve,
        connect,
        ca,
        timeoutMs,
      });
    } catch (error) {
      await record(null);
      throw new Error(describeNetworkError(error));
    }
    await record(answer);
    if (isSuccess(answer.status)) return;
    throw new Error(
      answer.status >= 300 && answer.status < 400
        ? `HTTP ${answer.status}: the receiver redirected, and redirects are not followed; use the final URL`
        : `HTTP ${answer.status} from the receiver`,
    );
  };
}

const isSuccess = (status: number) => status >= 200 && status < 300;

function describeNetworkError(error: unknown): string {
  const details = error as { title?: unknown; message?: unknown; code?: unknown };
  if (typeof details.title === "string") {
    const message = String(details.message);
    // "Refused: 10.0.0.5 is…" already says what it is.
    return message.startsWith(`${details.title}:`) ? message : `${details.title}: ${message}`;
  }
  switch (details.code) {
    case "ECONNREFUSED":
      return "Connection refused (ECONNREFUSED)";
    case "ECONNRESET":
    case "EPIPE":
      return `The receiver closed the connection early (${details.code})`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `Host unreachable (${details.code})`;
    case "ETIMEDOUT":
      return "Connection timed out (ETIMEDOUT)";
    default:
      return typeof details.code === "string"
        ? `Request failed (${details.code})`
        : `Request failed: ${String(details.message ?? error)
            .split("\n")[0]
            ?.slice(0, 200)}`;
  }
}
