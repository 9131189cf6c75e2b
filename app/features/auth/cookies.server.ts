import { ADMIN_HINT_COOKIE } from "#app/lib/admin-hint.ts";
import { readCookie } from "#app/lib/cookies.ts";

// The session cookie: `__Host-` prefixed over HTTPS (the browser then refuses it unless Secure, on
// this exact host, for the whole site), plain `session` over HTTP (local use, tests).
export const SECURE_SESSION_COOKIE = "__Host-session";
export const SESSION_COOKIE = "session";
// A readable hint (no secret) that this browser signed in as an admin: the prerendered header then
// asks /api/user whether to show the Admin link. It grants nothing; the server decides.
export { ADMIN_HINT_COOKIE };

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

export function readSessionToken(request: Request): string | undefined {
  const header = request.headers.get("cookie");
  return readCookie(header, SECURE_SESSION_COOKIE) ?? readCookie(header, SESSION_COOKIE);
}

export function sessionCookies(
  request: Request,
  token: string,
  maxAgeSeconds: number,
  /** Whether the header should ask for its Admin link: any account with a back-office role. */
  hasBackOffice: boolean,
): string[] {
  const secure = isSecureRequest(request);
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const attributes = `Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure ? "; Secure" : ""}`;
  const cookies = [`${name}=${token}; ${attributes}; HttpOnly`];
  if (hasBackOffice) cookies.push(`${ADMIN_HINT_COOKIE}=1; ${attributes}`);
  return cookies;
}

export function clearedSessionCookies(request: Request): string[] {
  const secure = isSecureRequest(request);
  const expired = `Path=/; Max-Age=0; SameSite=Lax${secure ? "; Secure" : ""}`;
  return [
    `${secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE}=; ${expired}; HttpOnly`,
    `${ADMIN_HINT_COOKIE}=; ${expired}`,
  ];
}

// The pending-login cookie (ADR 017): a right password waiting for its second step. HttpOnly,
// SameSite=Strict (it is only ever sent back by this site's own login forms), five minutes, and
// `__Host-` prefixed and Secure over HTTPS like the session cookie. It holds a random token; the
// server keeps its hash bound to the user and deletes it once used.
export const SECURE_PENDING_LOGIN_COOKIE = "__Host-pending_login";
export const PENDING_LOGIN_COOKIE = "pending_login";

export function readPendingLoginToken(request: Request): string | undefined {
  const header = request.headers.get("cookie");
  return readCookie(header, SECURE_PENDING_LOGIN_COOKIE) ?? readCookie(header, PENDING_LOGIN_COOKIE);
}

export function pendingLoginCookie(request: Request, token: string, maxAgeSeconds: number): string {
  const secure = isSecureRequest(request);
  return `${secure ? SECURE_PENDING_LOGIN_COOKIE : PENDING_LOGIN_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Strict${secure ? "; Secure" : ""}; HttpOnly`;
}

export function clearedPendingLoginCookie(request: Request): string {
  const secure = isSecureRequest(request);
  return `${secure ? SECURE_PENDING_LOGIN_COOKIE : PENDING_LOGIN_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict${secure ? "; Secure" : ""}; HttpOnly`;
}

// The device cookie (issue 22 point 1, trusted-device.server.ts): a signed token saying this browser
// has signed in to an account before, so the sign-in throttle judges it on its own counter. HttpOnly
// (no script reads it), SameSite=Strict (only this site's own sign-in forms send it back), and
// `__Host-` prefixed and Secure over HTTPS. Sign-out leaves it: it opens nothing by itself.
export const SECURE_DEVICE_COOKIE = "__Host-device";
export const DEVICE_COOKIE = "device";

export function readDeviceToken(request: Request): string | undefined {
  const header = request.headers.get("cookie");
  return isSecureRequest(request)
    ? readCookie(header, SECURE_DEVICE_COOKIE)
    : (readCookie(header, SECURE_DEVICE_COOKIE) ?? readCookie(header, DEVICE_COOKIE));
}

export function deviceCookie(request: Request, token: string, maxAgeSeconds: number): string {
  const secure = isSecureRequest(request);
  return `${secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Strict${secure ? "; Secure" : ""}; HttpOnly`;
}
