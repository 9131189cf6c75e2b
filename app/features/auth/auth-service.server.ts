import { createHmac } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { RateLimiter } from "#app/lib/rate-limit.server.ts";
import { MAX_PASSWORD_LENGTH, verifyAgainstNothing, verifyPassword } from "./password.server.ts";
import {
  createSession,
  deleteSession,
  findSessionUser,
  pruneSessions,
  type SessionPolicy,
} from "./sessions.server.ts";
import { findUserByUsername, type PublicUser, toPublicUser } from "./users.server.ts";

export type LoginResult =
  | { kind: "ok"; user: PublicUser; token: string; maxAgeSeconds: number }
  | { kind: "invalid" }
  | { kind: "throttled"; retryAfterSeconds: number };

export type AuthServiceOptions = {
  db: Kysely<Database>;
  secret: string;
  policy: SessionPolicy;
  /** Failed logins per username per window (guessing one account's password). */
  usernameLimiter: RateLimiter;
  /** Failed logins per client address per window (trying many accounts). */
  clientLimiter: RateLimiter;
};

/**
 * Sign-in, the current user and sign-out. One answer ("invalid") for an unknown user and a wrong
 * password, in the same time, so neither the message nor the timing tells which usernames exist.
 */
export function createAuthService({
  db,
  secret,
  policy,
  usernameLimiter,
  clientLimiter,
}: AuthServiceOptions) {
  const clientKey = (address: string) =>
    `login-client:${createHmac("sha256", secret).update(address).digest("base64url").slice(0, 22)}`;
  const usernameKey = (username: string) =>
    `login-user:${createHmac("sha256", secret).update(username.trim().toLowerCase()).digest("base64url").slice(0, 22)}`;

  return {
    policy,

    async login(
      username: string,
      password: string,
      clientAddress: string,
      now = new Date(),
    ): Promise<LoginResult> {
      const keys = { user: usernameKey(username), client: clientKey(clientAddress) };
      for (const [limiter, key] of [
        [usernameLimiter, keys.user],
        [clientLimiter, keys.client],
      ] as const) {
        const decision = await limiter.peek(key, now.getTime());
        if (!decision.allowed) return { kind: "throttled", retryAfterSeconds: decision.retryAfterSeconds };
      }
      const user =
        username && password.length <= MAX_PASSWORD_LENGTH
          ? await findUserByUsername(db, username)
          : undefined;
      const valid = user
        ? await verifyPassword(password, user.passwordHash)
        : await verifyAgainstNothing(password);
      if (!user || !valid) {
        await usernameLimiter.hit(keys.user, now.getTime());
        await clientLimiter.hit(keys.client, now.getTime());
        return { kind: "invalid" };
      }
      await usernameLimiter.reset(keys.user);
      const { token } = await createSession(db, Number(user.id), policy, now);
      return {
        kind: "ok",
        user: toPublicUser(user),
        token,
        maxAgeSeconds: Math.floor(policy.absoluteMs / 1000),
      };
    },

    currentUser(token: string | undefined, now = new Date()): Promise<PublicUser | null> {
      return token ? findSessionUser(db, token, policy, now) : Promise.resolve(null);
    },

    async logout(token: string | undefined): Promise<void> {
      if (token) await deleteSession(db, token);
    },

    prune: (now = new Date()) => pruneSessions(db, policy, now),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
