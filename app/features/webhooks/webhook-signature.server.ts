import { createHmac, randomBytes } from "node:crypto";

// How a delivery is signed: two signatures of the same body with the same key, so that a receiver
// can check whichever it was built for (issue 10; issue 32 point 16, ADR "standard-webhooks").
//
// - Standard Webhooks (standardwebhooks.com): `webhook-id` (the event id, the same at every retry:
//   the standard's idempotency key), `webhook-timestamp` (Unix seconds of this attempt) and
//   `webhook-signature: v1,<base64 HMAC-SHA256 over "<id>.<timestamp>.<raw body>">`.
// - Clausebridge's own (the scheme of Stripe and Twenty, kept for receivers built on it):
//   `X-Clausebridge-Signature: sha256=<hex HMAC-SHA256 over "<timestamp>.<raw body>">` beside
//   `X-Clausebridge-Timestamp`, the same Unix seconds.
//
// THE KEY is the UTF-8 bytes of the text stored in `webhooks.secret`, for every webhook. Before
// issue 32 that text was what the page showed ("whsec_" + 43 base64url characters) and receivers
// keyed their HMAC with it as is: those webhooks keep that key, so their receivers keep verifying.
// The secret is now shown in the standard's form, "whsec_" + base64 of the key bytes, which a
// Standard Webhooks library decodes back to exactly this key. One rule for old and new rows, no
// migration, and an instance still running the previous release signs every webhook identically.

export const SIGNATURE_HEADER = "X-Clausebridge-Signature";
export const TIMESTAMP_HEADER = "X-Clausebridge-Timestamp";
export const EVENT_ID_HEADER = "X-Clausebridge-Event-Id";
export const EVENT_TYPE_HEADER = "X-Clausebridge-Event";
export const STANDARD_ID_HEADER = "webhook-id";
export const STANDARD_TIMESTAMP_HEADER = "webhook-timestamp";
export const STANDARD_SIGNATURE_HEADER = "webhook-signature";

/** The prefix of a Standard Webhooks secret: what follows it is the key, in base64. */
export const SHOWN_SECRET_PREFIX = "whsec_";

/**
 * A new signing key, as stored: 48 random base64url characters (288 bits). Text, because the column
 * is text like every stored key before it; 48 bytes, at least the standard's 24, and a multiple of
 * 3, so the shown form has no base64 padding.
 */
export function newWebhookKey(): string {
  return randomBytes(36).toString("base64url");
}

/** The secret as staff and the API are shown it: `whsec_` + base64 of the key bytes. */
export function shownWebhookSecret(key: string): string {
  return `${SHOWN_SECRET_PREFIX}${Buffer.from(key, "utf8").toString("base64")}`;
}

/** `sha256=<hex>` for a body sent at `timestamp` (Unix seconds), keyed with the stored key. */
export function signWebhookBody(key: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", Buffer.from(key, "utf8")).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The Standard Webhooks signature, `v1,<base64>`, of message `id` sent at `timestamp` (Unix seconds). */
export function signStandardWebhook(key: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", Buffer.from(key, "utf8")).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** Every header that identifies and signs one attempt of one delivery, both schemes. */
export function deliveryHeaders(input: {
  key: string;
  eventId: string;
  eventType: string;
  timestamp: number;
  body: string;
}): Record<string, string> {
  const { key, eventId, eventType, timestamp, body } = input;
  return {
    [STANDARD_ID_HEADER]: eventId,
    [STANDARD_TIMESTAMP_HEADER]: String(timestamp),
    [STANDARD_SIGNATURE_HEADER]: signStandardWebhook(key, eventId, timestamp, body),
    [EVENT_ID_HEADER]: eventId,
    [EVENT_TYPE_HEADER]: eventType,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signWebhookBody(key, timestamp, body),
  };
}
