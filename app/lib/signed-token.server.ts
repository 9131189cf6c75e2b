import { createHmac, timingSafeEqual } from "node:crypto";

// Links that grant one thing without signing in (a post's private preview, a meeting's manage link,
// a lead's right to book right after its request): `<id>.<expires>.<signature>`, signed with the
// app secret and a purpose, so every instance accepts every other's and no token of one purpose
// passes for another. `expires` is in seconds; 0 means the caller decides from its own data (a
// manage link lives until its meeting ends). A link cannot be revoked before it expires; changing
// APP_SECRET revokes them all (docs/security.md).

const TOKEN_PATTERN = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;
/** Longer than any token this module makes: a longer one is refused before any work. */
const MAX_TOKEN_LENGTH = 80;

function signature(secret: string, purpose: string, id: number, expiresAtSeconds: number): string {
  return createHmac("sha256", secret)
    .update(`${purpose}:${id}:${expiresAtSeconds}`)
    .digest()
    .subarray(0, 16)
    .toString("base64url");
}

/** A token for `id`, valid until `expiresAt` (milliseconds, floored to the second; 0: no expiry of its own). */
export function signToken(secret: string, purpose: string, id: number, expiresAt = 0): string {
  const seconds = Math.floor(expiresAt / 1000);
  return `${id}.${seconds}.${signature(secret, purpose, id, seconds)}`;
}

export type TokenCheck =
  | { ok: true; id: number /** milliseconds; 0 when it has no expiry of its own */; expiresAt: number }
  | { ok: false; reason: "malformed" | "forged" | "expired" };

/** The id a genuine, unexpired token names. Constant-time on the signature. */
export function verifyToken(secret: string, purpose: string, token: string, now = Date.now()): TokenCheck {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "malformed" };
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const id = Number(match[1]);
  const seconds = Number(match[2]);
  if (!Number.isSafeInteger(id) || id < 1) return { ok: false, reason: "malformed" };
  // Compared as text: base64url has several spellings of the last character's spare bits, and
  // exactly one token is valid for an id and an expiry (a changed last character is refused).
  const given = Buffer.from(match[3] as string);
  const expected = Buffer.from(signature(secret, purpose, id, seconds));
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: "forged" };
  if (seconds !== 0 && seconds * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, id, expiresAt: seconds * 1000 };
}
