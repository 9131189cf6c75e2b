import { createHmac, timingSafeEqual } from "node:crypto";

// Private preview links (issue 24): `/preview/<token>` shows a post as it is now to whoever holds the
// link, without signing in, until the link expires. The token names the post and its expiry and is
// signed with the app secret (APP_SECRET, or the one kept in the database), so every instance accepts
// every other's links and nobody can forge one or stretch its expiry. It holds no personal data and
// grants nothing but reading that one post. A link cannot be revoked before it expires; changing
// APP_SECRET revokes them all (docs/security.md).

/** How long a preview link works. */
export const PREVIEW_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Longer than any token this module makes: a longer one is refused before any work. */
const MAX_TOKEN_LENGTH = 80;
const TOKEN_PATTERN = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

function signature(secret: string, postId: number, expiresAtSeconds: number): Buffer {
  // The purpose is signed too, so no other token signed with the same secret can pass as a preview.
  return createHmac("sha256", secret)
    .update(`post-preview:v1:${postId}:${expiresAtSeconds}`)
    .digest()
    .subarray(0, 16);
}

/** A preview token for the post, valid for `ttlMs` from `now`. */
export function createPreviewToken(
  secret: string,
  postId: number,
  now = new Date(),
  ttlMs = PREVIEW_TTL_MS,
): string {
  const expiresAtSeconds = Math.floor((now.getTime() + ttlMs) / 1000);
  return `${postId}.${expiresAtSeconds}.${signature(secret, postId, expiresAtSeconds).toString("base64url")}`;
}

/** The path of a preview link (the lead engineer's /preview/:token page reads it). */
export function previewPath(token: string): string {
  return `/preview/${token}`;
}

export type PreviewCheck =
  | { ok: true; postId: number; expiresAt: string }
  | { ok: false; reason: "malformed" | "forged" | "expired" };

/** Which post a token opens, if it is genuine and not expired. Constant-time on the signature. */
export function verifyPreviewToken(secret: string, token: string, now = new Date()): PreviewCheck {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "malformed" };
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const postId = Number(match[1]);
  const expiresAtSeconds = Number(match[2]);
  if (!Number.isSafeInteger(postId) || postId < 1) return { ok: false, reason: "malformed" };
  // Compared as text: base64url has several spellings of the last character's spare bits, and
  // exactly one token is valid for a post and an expiry.
  const given = Buffer.from(match[3] as string);
  const expected = Buffer.from(signature(secret, postId, expiresAtSeconds).toString("base64url"));
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: "forged" };
  if (expiresAtSeconds * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, postId, expiresAt: new Date(expiresAtSeconds * 1000).toISOString() };
}
