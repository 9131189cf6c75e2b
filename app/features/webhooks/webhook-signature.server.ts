import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// How a delivery is signed (issue 10; the scheme of Stripe and Twenty): HMAC-SHA256 keyed with the
// webhook's secret, over "<timestamp>.<raw body>", sent as `X-Clausebridge-Signature: sha256=<hex>`
// beside `X-Clausebridge-Timestamp` (Unix seconds). Signing the timestamp with the body lets a
// receiver refuse an old message replayed later (README, "Verifying a delivery").

export const SIGNATURE_HEADER = "X-Clausebridge-Signature";
export const TIMESTAMP_HEADER = "X-Clausebridge-Timestamp";
export const EVENT_ID_HEADER = "X-Clausebridge-Event-Id";
export const EVENT_TYPE_HEADER = "X-Clausebridge-Event";

const SECRET_PREFIX = "whsec_";

/** A new signing secret: 256 random bits, prefixed so it is recognisable in a receiver's settings. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** `sha256=<hex>` for a body sent at `timestamp` (Unix seconds). The key is the secret as shown. */
export function signWebhookBody(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The receiver's check, as the README documents it (the tests verify deliveries independently). */
export function verifyWebhookSignature(
  secret: string,
  headers: { timestamp: string | null; signature: string | null },
  body: string,
  { nowSeconds = Math.floor(Date.now() / 1000), toleranceSeconds = 300 } = {},
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!headers.timestamp || !/^\d+$/.test(headers.timestamp)) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhookBody(secret, timestamp, body));
  const given = Buffer.from(headers.signature ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
