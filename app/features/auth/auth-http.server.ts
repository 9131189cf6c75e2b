import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { SIGN_IN_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { readJsonObject } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { authServices } from "./auth-context.server.ts";
import {
  clearedPendingLoginCookie,
  clearedSessionCookies,
  deviceCookie,
  pendingLoginCookie,
  readDeviceToken,
  readPendingLoginToken,
  readSessionToken,
  sessionCookies,
} from "./cookies.server.ts";
import { HASHING_BUSY_MESSAGE, HASHING_BUSY_RETRY_AFTER_SECONDS } from "./hashing-queue.server.ts";
import { MAX_PASSWORD_LENGTH } from "./password.server.ts";
import type { PublicUser } from "./users.server.ts";

type Context = Readonly<RouterContextProvider>;

// SPEC section 8's wording for a failed login; the same for an unknown user and a wrong password.
export const INVALID_CREDENTIALS = "Invalid credentials";

// A control character in a username, or NUL in a password, can match no account: refused like a
// wrong password, before the database (PostgreSQL refuses NUL in text) or the throttle see it.
export const LoginSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, "Please enter your username")
    .max(64, INVALID_CREDENTIALS)
    .refine((value) => !breaksTextRule(value, "one-line"), INVALID_CREDENTIALS),
  password: z
    .string()
    .min(1, "Please enter your password")
    .max(MAX_PASSWORD_LENGTH, INVALID_CREDENTIALS)
    .refine((value) => !breaksTextRule(value, "no-nul"), INVALID_CREDENTIALS),
});

export function tooManyLoginsMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

type User = PublicUser;

export type LoginOutcome =
  | { kind: "ok"; user: User; cookies: string[] }
  /** Password right, second step next (ADR 017): only the pending-login cookie, no session. */
  | { kind: "second-step"; username: string; purpose: "verify" | "enrol"; cookies: string[] }
  | { kind: "refused"; status: number; message: string; headers?: Record<string, string> };

export type SecondStepOutcome =
  | { kind: "ok"; user: User; recoveryCodes?: string[]; cookies: string[] }
  | {
      kind: "refused";
      status: number;
      message: string;
      /** The pending login is gone: the person starts again with the password. */
      restart?: boolean;
      headers?: Record<string, string>;
      cookies?: string[];
    };

export const INVALID_CODE = "Invalid code";
// Issue 22 point 3 (ADR 020): under STAFF_2FA_REQUIRED an account without a second factor sets it up
// only through a set-up link; the password alone is refused with what to do.
export const SETUP_LINK_NEEDED =
  "Two-factor sign-in must be set up for this account first. Ask an administrator for a set-up link.";
// Issue 22 point 5: the code was right but its 30 seconds were already used (signing in right after
// turning two-factor sign-in on): "Invalid code" alone sends people to check their clock or app.
export const CODE_JUST_USED = "That code has just been used. Please wait for the next code from your app.";
export const TOO_MANY_CODES = "Too many wrong codes. Please enter your username and password again.";
// Issue 32 point 3: 20 wrong codes today for the account from browsers it has not signed in from.
export const CODES_CLOSED_TODAY =
  "Too many wrong codes have been entered for this account today. Codes from this browser are refused until the day ends (midnight UTC) or an administrator reopens the code step. A browser you have signed in with before can still sign in.";
export const SIGN_IN_EXPIRED = "Your sign-in has expired. Please enter your username and password again.";

// A six-digit code or a recovery code, with the spaces and dashes people type; anything longer is no code.
export const SecondStepSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "Please enter the code")
    .max(32, INVALID_CODE)
    .refine((value) => /^[0-9A-Za-z -]+$/.test(value), INVALID_CODE),
});

/** Checks credentials (throttled) and opens a session: shared by POST /api/login and the login form. */
export async function attemptLogin(
  request: Request,
  context: Context,
  input: unknown,
): Promise<LoginOutcome> {
  const parsed = LoginSchema.safeParse(input);
  if (!parsed.success) {
    return { kind: "refused", status: 400, message: parsed.error.issues[0]?.message ?? INVALID_CREDENTIALS };
  }
  const { auth } = await authServices(context);
  const result = await auth.login(
    parsed.data.username,
    parsed.data.password,
    context.get(clientAddressContext),
    new Date(),
    request.headers.get("user-agent"),
    readDeviceToken(request),
  );
  if (result.kind === "throttled") {
    return {
      kind: "refused",
      status: 429,
      message: tooManyLoginsMessage(result.retryAfterSeconds),
      headers: { "Retry-After": String(result.retryAfterSeconds) },
    };
  }
  if (result.kind === "busy") {
    return {
      kind: "refused",
      status: 503,
      message: HASHING_BUSY_MESSAGE,
      headers: { "Retry-After": String(HASHING_BUSY_RETRY_AFTER_SECONDS) },
    };
  }
  if (result.kind === "invalid") return { kind: "refused", status: 401, message: INVALID_CREDENTIALS };
  if (result.kind === "setup-required") return { kind: "refused", status: 403, message: SETUP_LINK_NEEDED };
  if (result.kind === "second-step") {
    return {
      kind: "second-step",
      username: result.username,
      purpose: result.purpose,
      cookies: [pendingLoginCookie(request, result.pendingToken, result.maxAgeSeconds)],
    };
  }
  return {
    kind: "ok",
    user: result.user,
    cookies: [
      ...sessionCookies(request, result.token, result.maxAgeSeconds, result.user.role !== null),
      deviceCookie(request, result.device.token, result.device.maxAgeSeconds),
    ],
  };
}

/** The second step (a code) for the pending login the request's cookie names. */
export async function attemptSecondStep(
  request: Request,
  context: Context,
  input: unknown,
): Promise<SecondStepOutcome> {
  const parsed = SecondStepSchema.safeParse(input);
  if (!parsed.success) {
    return { kind: "refused", status: 400, message: parsed.error.issues[0]?.message ?? INVALID_CODE };
  }
  const { auth } = await authServices(context);
  const result = await auth.completeSecondStep(
    readPendingLoginToken(request),
    parsed.data.code,
    context.get(clientAddressContext),
    new Date(),
    request.headers.get("user-agent"),
    readDeviceToken(request),
  );
  switch (result.kind) {
    case "throttled":
      return {
        kind: "refused",
        status: 429,
        message: tooManyLoginsMessage(result.retryAfterSeconds),
        headers: { "Retry-After": String(result.retryAfterSeconds) },
      };
    case "codes-closed":
      return {
        kind: "refused",
        status: 429,
        message: CODES_CLOSED_TODAY,
        headers: { "Retry-After": String(result.retryAfterSeconds) },
      };
    case "expired":
      return {
        kind: "refused",
        status: 401,
        message: SIGN_IN_EXPIRED,
        restart: true,
        cookies: [clearedPendingLoginCookie(request)],
      };
    case "too-many-codes":
      return {
        kind: "refused",
        status: 401,
        message: TOO_MANY_CODES,
        restart: true,
        cookies: [clearedPendingLoginCookie(request)],
      };
    case "invalid":
      return { kind: "refused", status: 401, message: result.spent ? CODE_JUST_USED : INVALID_CODE };
    case "ok":
      return {
        kind: "ok",
        user: result.user,
        recoveryCodes: result.recoveryCodes,
        cookies: [
          clearedPendingLoginCookie(request),
          ...sessionCookies(request, result.token, result.maxAgeSeconds, result.user.role !== null),
          deviceCookie(request, result.device.token, result.device.maxAgeSeconds),
        ],
      };
  }
}

/** Forgets the request's pending login (starting again): the cookie to clear it. */
export async function cancelSecondStep(request: Request, context: Context): Promise<string[]> {
  const { auth } = await authServices(context);
  await auth.cancelPendingLogin(readPendingLoginToken(request));
  return [clearedPendingLoginCookie(request)];
}

function withCookies(response: Response, cookies: string[]): Response {
  for (const cookie of cookies) response.headers.append("Set-Cookie", cookie);
  return response;
}

/** POST /api/login (SPEC section 7): the user JSON with isAdmin, or `{ message }`. */
export async function handleLoginApi(request: Request, context: Context): Promise<Response> {
  assertSameOrigin(request);
  const body = await readJsonObject(request, SIGN_IN_BODY_LIMIT);
  if (!body.ok) return body.response;
  const outcome = await attemptLogin(request, context, body.value);
  if (outcome.kind === "refused") {
    return Response.json({ message: outcome.message }, { status: outcome.status, headers: outcome.headers });
  }
  if (outcome.kind === "second-step") {
    // Issue 13: 200 without a session; the code goes to POST /api/login/2fa within five minutes.
    // An account that must first set up two-factor sign-in gets the secret to add to its app.
    const body: Record<string, unknown> = { twoFactorRequired: true, username: outcome.username };
    if (outcome.purpose === "enrol") {
      const { auth } = await authServices(context);
      const pending = await auth.pendingLogin(pendingTokenOf(outcome.cookies));
      body.setupRequired = true;
      if (pending?.enrolment) {
        body.secret = pending.enrolment.secret;
        body.otpauthUri = pending.enrolment.uri;
      }
    }
    return withCookies(Response.json(body), outcome.cookies);
  }
  return withCookies(Response.json(outcome.user), outcome.cookies);
}

/** The token a pending-login Set-Cookie carries. */
function pendingTokenOf(cookies: string[]): string | undefined {
  return /^[^=]+=([^;]*)/.exec(cookies[0] ?? "")?.[1];
}

/**
 * POST /api/login/2fa { code } (issue 13): the user JSON and the session, like POST /api/login
 * without a second step (and `recoveryCodes`, once, when this code turned two-factor sign-in on).
 */
export async function handleSecondStepApi(request: Request, context: Context): Promise<Response> {
  assertSameOrigin(request);
  const body = await readJsonObject(request, SIGN_IN_BODY_LIMIT);
  if (!body.ok) return body.response;
  const outcome = await attemptSecondStep(request, context, body.value);
  if (outcome.kind === "refused") {
    // `signInAgain`: the pending login is gone (expired or used); POST /api/login starts afresh.
    const body = outcome.restart
      ? { message: outcome.message, signInAgain: true }
      : { message: outcome.message };
    return withCookies(
      Response.json(body, { status: outcome.status, headers: outcome.headers }),
      outcome.cookies ?? [],
    );
  }
  const answer = outcome.recoveryCodes
    ? { ...outcome.user, recoveryCodes: outcome.recoveryCodes }
    : outcome.user;
  return withCookies(Response.json(answer), outcome.cookies);
}

/** Ends the session on the server and clears the cookies; shared by POST /api/logout and the pages. */
export async function logout(request: Request, context: Context): Promise<string[]> {
  const { auth } = await authServices(context);
  await auth.logout(readSessionToken(request));
  return clearedSessionCookies(request);
}

export async function handleLogoutApi(request: Request, context: Context): Promise<Response> {
  assertSameOrigin(request);
  return withCookies(Response.json({ message: "Logged out" }), await logout(request, context));
}

export { withCookies };
