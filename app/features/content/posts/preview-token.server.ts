import { signToken, verifyToken } from "#app/lib/signed-token.server.ts";

// Private preview links (issue 24): `/preview/<token>` shows a post as it is now to whoever holds the
// link, without signing in, until the link expires. The token names the post and its expiry and is
// signed with the app secret (APP_SECRET, or the one kept in the database), so every instance accepts
// every other's links and nobody can forge one or stretch its expiry. It holds no personal data and
// grants nothing but reading that one post. A link cannot be revoked before it expires; changing
// APP_SECRET revokes them all (docs/security.md).

/** How long a preview link works. */
export const PREVIEW_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const PURPOSE = "post-preview:v1";

/** A preview token for the post, valid for `ttlMs` from `now`. */
export function createPreviewToken(
  secret: string,
  postId: number,
  now = new Date(),
  ttlMs = PREVIEW_TTL_MS,
): string {
  return signToken(secret, PURPOSE, postId, now.getTime() + ttlMs);
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
  const check = verifyToken(secret, PURPOSE, token, now.getTime());
  if (!check.ok) return check;
  // Every preview token carries its expiry; one without is not one this module made.
  if (check.expiresAt === 0) return { ok: false, reason: "malformed" };
  return { ok: true, postId: check.id, expiresAt: new Date(check.expiresAt).toISOString() };
}
