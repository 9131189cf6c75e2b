import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import type { HashingQueue } from "./hashing-queue.server.ts";
import type { LoginThrottle } from "./login-throttle.server.ts";
import { MAX_PASSWORD_LENGTH, verifyAgainstNothing, verifyPassword } from "./password.server.ts";
import { describeBrowser } from "./session-device.ts";
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
  // `tried`: the account a failure was against, for the access log. A name that is no account is
  // not kept: people type passwords into the username field.
  return { user: usable && valid ? usable : undefined, tried: user };
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
      if (!checked.user) {
        reservation.failed();
        const tried = checked.tried;
        await recordAccess(
          db,
          {
            action: "sign_in_failed",
            actor: tried ? { id: Number(tried.id), username: tried.username } : null,
            detail: tried ? {} : { account: "unknown" },
            clientAddress,
          },
          now,
        );
        return { kind: "invalid" };
      }
      const user = checked.user;
      await reservation.succeeded();
      const { token } = await createSession(db, Number(user.id), policy, now, { userAgent, clientAddress });
      await recordAccess(
        db,
        {
          action: "sign_in",
          actor: { id: Number(user.id), username: user.username },
          detail: { browser: describeBrowser(userAgent) },
          clientAddress,
        },
        now,
      );
      // Shown on the staff page; one small write next to the session's.
      await db
        .updateTable("users")
        .set({ lastSignInAt: now.toISOString() })
        .where("id", "=", user.id)
        .execute();
      return {
        kind: "ok",
        user: toPublicUser(user),
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
    async endSession(user: PublicUser, handle: string, clientAddress: string): Promise<boolean> {
      const ended = await endSessionByHandle(db, user.id, handle);
      if (ended) await recordAccess(db, { action: "session_ended", actor: user, clientAddress });
      return ended;
    },

    /** Ends every session of the user but `token`'s; how many ended. */
    async endOtherSessions(user: PublicUser, token: string, clientAddress: string): Promise<number> {
      const ended = await endUserSessions(db, user.id, token);
      await recordAccess(db, { action: "sessions_ended", actor: user, detail: { ended }, clientAddress });
      return ended;
    },

    async prune(now = new Date()): Promise<void> {
      await pruneSessions(db, policy, now);
      await pruneSetPasswordLinks(db, now);
      await throttle.prune(now.getTime());
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
