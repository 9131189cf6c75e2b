import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { SIGN_IN_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { readJsonObject } from "#app/lib/http.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { clientAddressContext, getServices } from "#app/services.server.ts";
import { clearedSessionCookies, readSessionToken, sessionCookies } from "./cookies.server.ts";
import { assertSameOrigin } from "./guard.server.ts";
import { HASHING_BUSY_MESSAGE, HASHING_BUSY_RETRY_AFTER_SECONDS } from "./hashing-queue.server.ts";
import { MAX_PASSWORD_LENGTH } from "./password.server.ts";

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

export type LoginOutcome =
  | { kind: "ok"; user: { id: number; username: string; isAdmin: boolean }; cookies: string[] }
  | { kind: "refused"; status: number; message: string; headers?: Record<string, string> };

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
  const { auth } = await getServices(context);
  const result = await auth.login(
    parsed.data.username,
    parsed.data.password,
    context.get(clientAddressContext),
    new Date(),
    request.headers.get("user-agent"),
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
  return {
    kind: "ok",
    user: result.user,
    cookies: sessionCookies(request, result.token, result.maxAgeSeconds, result.user.isAdmin),
  };
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
  return withCookies(Response.json(outcome.user), outcome.cookies);
}

/** Ends the session on the server and clears the cookies; shared by POST /api/logout and the pages. */
export async function logout(request: Request, context: Context): Promise<string[]> {
  const { auth } = await getServices(context);
  await auth.logout(readSessionToken(request));
  return clearedSessionCookies(request);
}

export async function handleLogoutApi(request: Request, context: Context): Promise<Response> {
  assertSameOrigin(request);
  return withCookies(Response.json({ message: "Logged out" }), await logout(request, context));
}

export { withCookies };
