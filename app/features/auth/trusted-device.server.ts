import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { usernameKey } from "./users.server.ts";

// Device cookies (issue 22 point 1, OWASP "Slow down online guessing attacks with device cookies"):
// a browser that has signed in to an account carries a signed token naming a random device id and
// an expiry, bound to that account by the signature (the username itself is not in the cookie). The
// sign-in throttle judges such a browser on its own counter, so failures elsewhere, however many,
// never refuse it. It opens nothing by itself: the password (and the second factor) are still needed.
// A stolen one is worth five guesses in all (login-throttle.server.ts), then it is ignored.

/** How long a device stays trusted after its last sign-in; every sign-in issues a fresh token. */
export const DEVICE_TRUST_MS = 90 * 24 * 3_600_000;

export type DeviceKey = Buffer;

/** The signing key, derived from the app secret so it is never the key of anything else. */
export function deviceKey(appSecret: string): DeviceKey {
  return Buffer.from(hkdfSync("sha256", appSecret, "clausebridge-device", "device-cookie v1", 32));
}

const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;
const EXPIRY = /^[0-9]{1,12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

function sign(key: DeviceKey, username: string, id: string, expires: string): Buffer {
  return createHmac("sha256", key)
    .update(`v1|${usernameKey(username)}|${id}|${expires}`)
    .digest();
}

/** A new device token for `username`: `<device id>.<expiry in seconds>.<signature>`. */
export function issueDeviceToken(key: DeviceKey, username: string, now = new Date()): string {
  const id = randomBytes(16).toString("base64url");
  const expires = String(Math.floor((now.getTime() + DEVICE_TRUST_MS) / 1000));
  return `${id}.${expires}.${sign(key, username, id, expires).toString("base64url")}`;
}

/**
 * The device id of `token` when it is a live token this server signed for `username`, else
 * undefined (absent, malformed, expired, forged, or another account's).
 */
export function trustedDeviceId(
  key: DeviceKey,
  username: string,
  token: string | undefined,
  now = new Date(),
): string | undefined {
  if (!token || token.length > 100) return undefined;
  const [id, expires, signature, ...rest] = token.split(".");
  if (rest.length > 0 || !id || !expires || !signature) return undefined;
  if (!DEVICE_ID.test(id) || !EXPIRY.test(expires) || !SIGNATURE.test(signature)) return undefined;
  if (Number(expires) * 1000 <= now.getTime()) return undefined;
  const expected = sign(key, username, id, expires);
  const given = Buffer.from(signature, "base64url");
  // Both are 32 bytes here (the shape was checked); compared in constant time all the same.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return id;
}
