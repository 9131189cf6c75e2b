import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { HashingQueue } from "./hashing-queue.server.ts";
import type { LoginThrottle } from "./login-throttle.server.ts";
import { MAX_PASSWORD_LENGTH, verifyAgainstNothing, verifyPassword } from "./password.server.ts";
import {
  createSession,
  deleteSession,
  endSessionByHandle,
  endUserSessions,
  findSessionUser,
  listSessions,
  pruneSessions,
  type SessionPolicy,
} from "./sessions.server.ts";
import { pruneSetPasswordLinks } from "./staff.server.ts";
import { findUserByUsername, NO_PASSWORD, type PublicUser, toPublicUser } from "./users.server.ts";

export type LoginResult =
  | { kind: "ok"; user: PublicUser; token: string; maxAgeSeconds: number }
  | { kind: "invalid" }
  | { kind: "throttled"; retryAfterSeconds: number }
  /** Too many passwords are being checked right now; nothing was verified or counted. */
  | { kind: "busy" };

export type AuthServiceOptions = {
  db: Kysely<Database>;
  policy: SessionPolicy;
  /** Counts failed verifications per (username, address), address and username (ADR 005). */
  throttle: LoginThrottle;
  /** Bounds the password hashes computed at once. */
  hashing: HashingQueue;
};

/**
 * The user when the password is theirs and the account may sign in; scrypt runs either way, so an
 * unknown, disabled or password-less account answers in the same time as a wrong password.
 */
async function checkCredentialsWith(db: Kysely<Database>, username: string, password: string) {
  const user =
    username && password.length <= MAX_PASSWORD_LENGTH ? await findUserByUsername(db, username) : undefined;
  const usable = user && !user.disabled && user.passwordHash !== NO_PASSWORD ? user : undefined;
  const valid = usable
    ? await verifyPassword(password, usable.passwordHash)
    : await verifyAgainstNothing(password);
  return usable && valid ? usable : undefined;
}

/**
 * Sign-in, the current user and sign-out. One answer ("invalid") for an unknown user and a wrong
 * password, in the same time, so neither the message nor the timing tells which usernames exist.
 */
export function createAuthService({ db, policy, throttle, hashing }: AuthServiceOptions) {
  const checkCredentials = (username: string, password: string) =>
    checkCredentialsWith(db, username, password);
  return {
    policy,

    async login(
      username: string,
      password: string,
      clientAddress: string,
      now = new Date(),
      userAgent: string | null = null,
    ): Promise<LoginResult> {
      // A full queue refuses at once: a flood of sign-ins costs no database work either.
      if (!hashing.hasRoom()) return { kind: "busy" };
      // Counted before the password is checked, so parallel guesses cannot all pass the limit.
      const decision = await throttle.reserve(username, clientAddress, now.getTime());
      if (!decision.allowed) return { kind: "throttled", retryAfterSeconds: decision.retryAfterSeconds };
      const { reservation } = decision;
      let checked: Awaited<ReturnType<typeof checkCredentials>>;
      try {
        const outcome = await hashing.run(() => checkCredentials(username, password));
        if (outcome.busy) {
          await reservation.release();
          return { kind: "busy" };
        }
        checked = outcome.value;
      } catch (error) {
        // A database failure verified nothing: the attempt must not count against the user.
        await reservation.release().catch(() => {});
        throw error;
      }
      if (!checked) {
        reservation.failed();
        return { kind: "invalid" };
      }
      await reservation.succeeded();
      const { token } = await createSession(db, Number(checked.id), policy, now, {
        userAgent,
        clientAddress,
      });
      // Shown on the staff page; one small write next to the session's.
      await db
        .updateTable("users")
        .set({ lastSignInAt: now.toISOString() })
        .where("id", "=", checked.id)
        .execute();
      return {
        kind: "ok",
        user: toPublicUser(checked),
        token,
        maxAgeSeconds: Math.floor(policy.absoluteMs / 1000),
      };
    },

    currentUser(token: string | undefined, now = new Date()): Promise<PublicUser | null> {
      return token
        ? findSessionUser(db, token, policy, now, { waitForWrites: false })
        : Promise.resolve(null);
    },

    async logout(token: string | undefined): Promise<void> {
      if (token) await deleteSession(db, token);
    },

    /** The user's live sessions, `token`'s marked as the current one. */
    sessions(userId: number, token: string | undefined, now = new Date()) {
      return listSessions(db, userId, policy, token, now);
    },

    /** Ends one of the user's sessions by its public handle; false when it is none of theirs. */
    endSession(userId: number, handle: string): Promise<boolean> {
      return endSessionByHandle(db, userId, handle);
    },

    /** Ends every session of the user but `token`'s; how many ended. */
    endOtherSessions(userId: number, token: string | undefined): Promise<number> {
      return endUserSessions(db, userId, token);
    },

    async prune(now = new Date()): Promise<void> {
      await pruneSessions(db, policy, now);
      await pruneSetPasswordLinks(db, now);
      await throttle.prune(now.getTime());
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
