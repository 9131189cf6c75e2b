import { createHmac, timingSafeEqual } from "node:crypto";

// Links that grant one thing without signing in (issue 34: a meeting's manage link, a lead's right to
// book right after its request): `<id>.<expires>.<signature>`, signed with the app secret and a
// purpose, so every instance accepts every other's and no token of one purpose passes for another.
// `expires` 0 means the caller decides from its own data (a manage link lives until its meeting ends).

const TOKEN_PATTERN = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;
const MAX_TOKEN_LENGTH = 60;

function signature(secret: string, purpose: string, id: number, expiresAtSeconds: number): Buffer {
  return createHmac("sha256", secret).update(`${purpose}:${id}:${expiresAtSeconds}`).digest().subarray(0, 16);
}

/** A token for `id`, valid until `expiresAt` (milliseconds; 0: no expiry of its own). */
export function signToken(secret: string, purpose: string, id: number, expiresAt = 0): string {
  const seconds = Math.floor(expiresAt / 1000);
  return `${id}.${seconds}.${signature(secret, purpose, id, seconds).toString("base64url")}`;
}

export type TokenCheck = { ok: true; id: number } | { ok: false; reason: "malformed" | "forged" | "expired" };

/** The id a genuine, unexpired token names. Constant-time on the signature. */
export function verifyToken(secret: string, purpose: string, token: string, now = Date.now()): TokenCheck {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "malformed" };
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const id = Number(match[1]);
  const seconds = Number(match[2]);
  const expected = signature(secret, purpose, id, seconds);
  const given = Buffer.from(match[3] ?? "", "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: "forged" };
  if (seconds !== 0 && now >= seconds * 1000) return { ok: false, reason: "expired" };
  return { ok: true, id };
}
