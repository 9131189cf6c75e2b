import { createHmac, timingSafeEqual } from "node:crypto";
import { readCookie } from "#app/lib/cookies.ts";
import type { TokenFinding } from "./spam-verdict.ts";

// The time trap (issue 3): every page response carries a signed "first seen at" cookie. A lead sent
// without it, with a forged one, within a few seconds of it or long after it shows a signal in its
// spam verdict (spam-verdict.ts); on its own such a signal only marks the lead for review. A cookie
// rather than a hidden field because prerendered pages are identical for everyone, and it works with
// JavaScript off. It holds a timestamp and a signature, nothing that identifies the visitor.

export const TIME_TOKEN_COOKIE = "form_ts";
/** Faster than a person can read a form and type three fields (LEAD_MIN_FILL_SECONDS overrides). */
export const MIN_FILL_MS = 3_000;
/** Older than this is expired (and the browser drops the cookie then too). */
export const TIME_TOKEN_MAX_AGE_MS = 48 * 60 * 60 * 1000;
/** Pages reissue the cookie when it is older than this, so an active visitor's never expires. */
export const TIME_TOKEN_REFRESH_MS = 60 * 60 * 1000;

function signature(secret: string, issuedAt: number): Buffer {
  return createHmac("sha256", secret).update(`form-time:${issuedAt}`).digest().subarray(0, 16);
}

export function issueTimeToken(secret: string, now = Date.now()): string {
  return `${now}.${signature(secret, now).toString("base64url")}`;
}

/** What the token says about the submission's pace (spam-verdict.ts turns it into a signal). */
export function checkTimeToken(
  secret: string,
  token: string | undefined,
  now = Date.now(),
  minFillMs = MIN_FILL_MS,
): TokenFinding {
  if (!token) return { kind: "missing" };
  const [issued, mac] = token.split(".");
  const issuedAt = Number(issued);
  if (!Number.isSafeInteger(issuedAt) || !mac) return { kind: "invalid", detail: "malformed page cookie" };
  const given = Buffer.from(mac, "base64url");
  const expected = signature(secret, issuedAt);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { kind: "invalid", detail: "forged page cookie" };
  const age = now - issuedAt;
  if (age < minFillMs)
    return { kind: "too-fast", detail: `sent ${Math.max(0, age)} ms after the first page view` };
  if (age > TIME_TOKEN_MAX_AGE_MS) return { kind: "expired" };
  return { kind: "ok" };
}

/** True when a page response should (re)issue the cookie: none yet, unreadable, or getting old. */
export function needsTimeToken(cookieHeader: string | undefined, now = Date.now()): boolean {
  const token = readCookie(cookieHeader, TIME_TOKEN_COOKIE);
  const issuedAt = Number(token?.split(".")[0]);
  return !Number.isSafeInteger(issuedAt) || now - issuedAt > TIME_TOKEN_REFRESH_MS || issuedAt > now;
}

export function timeTokenCookie(token: string, secure: boolean): string {
  const maxAge = Math.floor(TIME_TOKEN_MAX_AGE_MS / 1000);
  return `${TIME_TOKEN_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
