import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import {
  CODE_FAILURE_LIMITS,
  codeFailureNotices,
  dismissCodeFailureNotices,
  giveBackCodeFailure,
  pruneCodeFailures,
  secondsToEndOfDay,
  takeCodeFailure,
  utcDay,
} from "./code-failures.server.ts";
import type { HashingQueue } from "./hashing-queue.server.ts";
import type { LoginThrottle } from "./login-throttle.server.ts";
import { MAX_PASSWORD_LENGTH, verifyAgainstNothing, verifyPassword } from "./password.server.ts";
import {
  consumePendingLogin,
  createPendingLogin,
  findPendingLogin,
  forgetPendingLogin,
  MAX_CODE_ATTEMPTS,
  PENDING_LOGIN_TTL_MS,
  prunePendingLogins,
  takeCodeAttempt,
} from "./pending-logins.server.ts";
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
import { DEVICE_TRUST_MS, deviceKey, issueDeviceToken, trustedDeviceId } from "./trusted-device.server.ts";
import { otpauthUri, qrSvg, twoFactorKeys } from "./two-factor.server.ts";
import {
  cancelEnrolment,
  checkSecondFactor,
  confirmEnrolment,
  disableTwoFactor,
  enrolmentSecret,
  isSpentAppCode,
  openSignInEnrolmentSecret,
  pendingEnrolmentSecret,
  renewRecoveryCodes,
  type SecondFactor,
  sealSignInEnrolmentSecret,
  twoFactorStatus,
} from "./two-factor-store.server.ts";
import { findUserByUsername, NO_PASSWORD, type PublicUser, toPublicUser } from "./users.server.ts";

type SignedIn = {
  kind: "ok";
  user: PublicUser;
  token: string;
  maxAgeSeconds: number;
  /** A fresh device cookie for this browser (trusted-device.server.ts), and how long it lives. */
  device: { token: string; maxAgeSeconds: number };
};

export type LoginResult =
  | SignedIn
  /**
   * The password was right and the account needs a second step (ADR 017): no session yet, only a
   * pending login for the cookie. "enrol": it must set up two-factor sign-in first.
   */
  | {
      kind: "second-step";
      username: string;
      purpose: "verify" | "enrol";
      pendingToken: string;
      maxAgeSeconds: number;
    }
  | { kind: "invalid" }
  /**
   * STAFF_2FA_REQUIRED and the account has no second factor: the password alone may not bind one
   * (issue 22 point 3, ADR 020); it needs a set-up link from an admin or the command line.
   */
  | { kind: "setup-required" }
  | { kind: "throttled"; retryAfterSeconds: number }
  /** Too many passwords are being checked right now; nothing was verified or counted. */
  | { kind: "busy" };

export type SecondStepResult =
  /** Signed in; `recoveryCodes` when this step turned two-factor sign-in on (show them once). */
  | (SignedIn & { recoveryCodes?: string[] })
  /** `spent`: the app's code for a step already used (just now, by this person): wait for the next. */
  | { kind: "invalid"; spent?: boolean }
  | { kind: "throttled"; retryAfterSeconds: number }
  /**
   * 20 wrong codes today for this account from clients that are not its trusted browsers (issue 32
   * point 3): the code step refuses them until the UTC day ends or an admin reopens it.
   */
  | { kind: "codes-closed"; retryAfterSeconds: number }
  /** No live pending login: start again with the password. */
  | { kind: "expired" }
  /** The pending login had its MAX_CODE_ATTEMPTS wrong codes and is gone: the password again. */
  | { kind: "too-many-codes" };

/** What the second step's page shows: whose sign-in it is and, to enrol, the secret and its QR code. */
export type PendingView = {
  username: string;
  purpose: "verify" | "enrol";
  enrolment?: EnrolmentView;
};
export type EnrolmentView = { secret: string; uri: string; qrSvg: string };

export type AuthServiceOptions = {
  db: Kysely<Database>;
  policy: SessionPolicy;
  /** Counts failed verifications per (username, address), address and username (ADR 005). */
  throttle: LoginThrottle;
  /** Bounds the password hashes computed at once. */
  hashing: HashingQueue;
  /** The app secret: two-factor secrets are encrypted and recovery codes hashed under keys from it. */
  secret: string;
  /** STAFF_2FA_REQUIRED: every account without two-factor sign-in enrols right after its password. */
  twoFactorRequired?: boolean;
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
export function createAuthService({
  db,
  policy,
  throttle,
  hashing,
  secret,
  twoFactorRequired = false,
}: AuthServiceOptions) {
  const checkCredentials = (username: string, password: string) =>
    checkCredentialsWith(db, username, password);
  const keys = twoFactorKeys(secret);
  const devices = deviceKey(secret);

  /** Opens a session for a sign-in that passed every step, and records it. */
  async function openSession(
    user: PublicUser,
    clientAddress: string,
    now: Date,
    userAgent: string | null,
    detail: Record<string, string> = {},
  ): Promise<SignedIn> {
    const { token } = await createSession(db, user.id, policy, now, { userAgent, clientAddress });
    await recordAccess(
      db,
      {
        action: "sign_in",
        actor: { id: user.id, username: user.username },
        detail: { browser: describeBrowser(userAgent), ...detail },
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
      user,
      token,
      maxAgeSeconds: Math.floor(policy.absoluteMs / 1000),
      // Issued afresh at every sign-in: the old device id's failures are forgotten with it.
      device: { token: issueDeviceToken(devices, user.username, now), maxAgeSeconds: DEVICE_TRUST_MS / 1000 },
    };
  }

  async function viewOf(base32: string | null, username: string): Promise<EnrolmentView | undefined> {
    if (!base32) return undefined;
    const uri = otpauthUri(base32, username);
    return { secret: base32, uri, qrSvg: await qrSvg(uri) };
  }

  /** The enrolment the owner started on /admin/account (kept on the user until confirmed). */
  async function enrolmentView(userId: number, username: string): Promise<EnrolmentView | undefined> {
    return viewOf(await pendingEnrolmentSecret(db, keys, userId), username);
  }

  /** The enrolment a sign-in started (kept on its pending login). */
  function signInEnrolmentView(sealed: string | null, username: string): Promise<EnrolmentView | undefined> {
    return viewOf(openSignInEnrolmentSecret(sealed, keys), username);
  }

  /** A signed-in owner proving it is them again: a current code or the password, throttled. */
  async function proveOwner(
    user: PublicUser,
    proof: { code: string } | { password: string },
    clientAddress: string,
    now: Date,
  ): Promise<"ok" | "invalid" | "busy" | { throttled: number }> {
    // A signed-in session proving itself hashes in the trusted lane (issue 32 point 2).
    const account = user.username.toLowerCase();
    if ("password" in proof && !hashing.hasRoom("trusted", account)) return "busy";
    const decision = await throttle.reserve(user.username, clientAddress, now.getTime());
    if (!decision.allowed) return { throttled: decision.retryAfterSeconds };
    const { reservation } = decision;
    let right: boolean;
    try {
      if ("code" in proof) {
        right = (await checkSecondFactor(db, keys, user.id, proof.code, now)) !== null;
      } else {
        const outcome = await hashing.run(
          () => checkCredentials(user.username, proof.password),
          "trusted",
          account,
        );
        if (outcome.busy) {
          await reservation.release();
          return "busy";
        }
        right = outcome.value.user !== undefined && Number(outcome.value.user.id) === user.id;
      }
    } catch (error) {
      await reservation.release().catch(() => {});
      throw error;
    }
    if (!right) {
      reservation.failed();
      return "invalid";
    }
    // Proving oneself is not a sign-in: the attempt is given back, the failures before it stay.
    await reservation.release();
    return "ok";
  }

  return {
    policy,
    twoFactorRequired,

    async login(
      username: string,
      password: string,
      clientAddress: string,
      now = new Date(),
      userAgent: string | null = null,
      /** The browser's device cookie, if it sent one: judged on its own counter when it is valid. */
      deviceToken?: string,
    ): Promise<LoginResult> {
      // A browser with a valid device cookie for this username (an HMAC check, no database work)
      // waits in the hashing queue's trusted lane, which a flood of other sign-ins cannot fill
      // (issue 32 point 2). A forged or another account's cookie is no cookie: the open lane.
      const device = trustedDeviceId(devices, username, deviceToken, now);
      // One trusted hash per account at a time (hashing-queue.server.ts): the lane is the owner's.
      const account = username.toLowerCase();
      if (!hashing.hasRoom(device ? "trusted" : "open", account)) {
        // A full queue refuses at once, the busy answer counted against the sending address: a
        // flood from many addresses uses up its allowance instead of answering "busy" for ever.
        if (device) return { kind: "busy" };
        const counted = await throttle.countBusy(clientAddress, now.getTime());
        return counted.allowed
          ? { kind: "busy" }
          : { kind: "throttled", retryAfterSeconds: counted.retryAfterSeconds };
      }
      // Counted before the password is checked, so parallel guesses cannot all pass the limit.
      const decision = await throttle.reserve(username, clientAddress, now.getTime(), device);
      if (!decision.allowed) return { kind: "throttled", retryAfterSeconds: decision.retryAfterSeconds };
      const { reservation } = decision;
      let checked: Awaited<ReturnType<typeof checkCredentials>>;
      try {
        // The lane follows the throttle's verdict: a device cookie spent on 5 failures is open.
        const lane = decision.trusted ? "trusted" : "open";
        const outcome = await hashing.run(() => checkCredentials(username, password), lane, account);
        if (outcome.busy) {
          await reservation.busy();
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
      if (!user.totpEnabledAt && twoFactorRequired) {
        // NOTE: whoever has the password must not be the one to bind the second factor: the owner
        // would be locked out by the thief's phone. Right password, so the attempt is given back.
        await reservation.release();
        return { kind: "setup-required" };
      }
      if (user.totpEnabledAt) {
        // NOTE: a right password alone must not wipe the counters (succeeded() would): a thief who
        // knows it could then guess codes without end. It is given back; wrong codes count on the
        // same counters, and the counters start afresh only after the second step.
        await reservation.release();
        const pendingToken = await createPendingLogin(db, Number(user.id), "verify", now);
        return {
          kind: "second-step",
          username: user.username,
          purpose: "verify",
          pendingToken,
          maxAgeSeconds: PENDING_LOGIN_TTL_MS / 1000,
        };
      }
      await reservation.succeeded();
      return openSession(toPublicUser(user), clientAddress, now, userAgent);
    },

    /**
     * Right after a set-up (set-password) link was used, when STAFF_2FA_REQUIRED is on and the
     * account has no second factor: a pending login that enrols, for the browser that used the link
     * (ADR 020). Its secret is its own (sealed on the pending login, ADR 017). Null otherwise.
     */
    async startLinkEnrolment(
      userId: number,
      now = new Date(),
    ): Promise<{ pendingToken: string; maxAgeSeconds: number } | null> {
      if (!twoFactorRequired) return null;
      const user = await db
        .selectFrom("users")
        .select(["totpEnabledAt", "disabled"])
        .where("id", "=", userId)
        .executeTakeFirst();
      if (!user || user.disabled || user.totpEnabledAt) return null;
      const sealed = await sealSignInEnrolmentSecret(db, keys, userId);
      const pendingToken = await createPendingLogin(db, userId, "enrol", now, sealed);
      return { pendingToken, maxAgeSeconds: PENDING_LOGIN_TTL_MS / 1000 };
    },

    /** The pending login of `token` as its page shows it, or null when there is none live. */
    async pendingLogin(token: string | undefined, now = new Date()): Promise<PendingView | null> {
      const pending = token ? await findPendingLogin(db, token, now) : null;
      if (!pending) return null;
      if (pending.purpose === "verify") return { username: pending.username, purpose: "verify" };
      return {
        username: pending.username,
        purpose: "enrol",
        enrolment: await signInEnrolmentView(pending.totpSecret, pending.username),
      };
    },

    /**
     * The second step: a code from the authenticator app, or a recovery code, for the pending login
     * of `token` (to enrol: the first code of the new secret). Throttled on the password's counters;
     * the pending login is used up by the one request that succeeds.
     */
    async completeSecondStep(
      token: string | undefined,
      code: string,
      clientAddress: string,
      now = new Date(),
      userAgent: string | null = null,
      deviceToken?: string,
    ): Promise<SecondStepResult> {
      const pending = token ? await findPendingLogin(db, token, now) : null;
      if (!token || !pending) return { kind: "expired" };
      // Wrong codes count on the password's counters too (a trusted browser: on its own), so a
      // thief with the password gets no more codes than guesses, and the owner's browser stays open.
      const device = trustedDeviceId(devices, pending.username, deviceToken, now);
      const decision = await throttle.reserve(pending.username, clientAddress, now.getTime(), device);
      if (!decision.allowed) return { kind: "throttled", retryAfterSeconds: decision.retryAfterSeconds };
      const { reservation } = decision;
      const account = { id: pending.userId, username: pending.username };
      // Codes for a second factor already on, from a client that is not the account's trusted
      // browser, also count per account and day (issue 32 point 3), before the code is checked.
      const perDay = pending.purpose === "verify" && !decision.trusted;
      let today: number | null = null;
      if (perDay) {
        try {
          today = await takeCodeFailure(db, pending.userId, now);
        } catch (error) {
          await reservation.release().catch(() => {});
          throw error;
        }
        if (today === null) {
          await reservation.release();
          return { kind: "codes-closed", retryAfterSeconds: secondsToEndOfDay(now) };
        }
      }
      /** Nothing was checked, or the code was right: the day's count gets the attempt back. */
      const giveBackToday = () => (perDay ? giveBackCodeFailure(db, pending.userId, now) : Promise.resolve());
      let attempt: number | null;
      try {
        attempt = await takeCodeAttempt(db, token, now);
      } catch (error) {
        await reservation.release().catch(() => {});
        await giveBackToday().catch(() => {});
        throw error;
      }
      if (attempt === null) {
        // Used up by parallel requests, or expired this moment: nothing was checked.
        await reservation.release();
        await giveBackToday();
        await forgetPendingLogin(db, token);
        return { kind: "too-many-codes" };
      }
      let outcome: SecondFactor | { method: "enrolled"; recoveryCodes: string[] } | null;
      try {
        if (pending.purpose === "verify") {
          outcome = await checkSecondFactor(db, keys, pending.userId, code, now);
        } else {
          const enrolled = await confirmEnrolment(db, keys, account, code, {
            now,
            clientAddress,
            signInSecret: pending.totpSecret,
          });
          outcome = enrolled ? { method: "enrolled", recoveryCodes: enrolled.recoveryCodes } : null;
        }
      } catch (error) {
        await reservation.release().catch(() => {});
        await giveBackToday().catch(() => {});
        throw error;
      }
      if (!outcome) {
        reservation.failed();
        await recordAccess(
          db,
          { action: "sign_in_failed", actor: account, detail: { step: "two-factor" }, clientAddress },
          now,
        );
        // The 5th wrong code of the day: the owner is told at their next sign-in (the back office's
        // notice); the 20th: the code step closes to untrusted clients. Both are in the access log.
        if (today === CODE_FAILURE_LIMITS.notice || today === CODE_FAILURE_LIMITS.day) {
          await recordAccess(
            db,
            {
              action:
                today === CODE_FAILURE_LIMITS.day ? "two_factor_codes_closed" : "two_factor_codes_warned",
              actor: null,
              subject: account,
              detail: { wrongCodes: today, day: utcDay(now) },
              clientAddress,
            },
            now,
          );
        }
        if (attempt >= MAX_CODE_ATTEMPTS) {
          await forgetPendingLogin(db, token);
          return { kind: "too-many-codes" };
        }
        const spent =
          pending.purpose === "verify" && (await isSpentAppCode(db, keys, pending.userId, code, now));
        return spent ? { kind: "invalid", spent } : { kind: "invalid" };
      }
      await giveBackToday();
      if (!(await consumePendingLogin(db, token, now))) {
        // Used by a parallel request, or expired this very moment: this one opens nothing.
        await reservation.release();
        return { kind: "expired" };
      }
      await reservation.succeeded();
      if (outcome.method === "recovery") {
        await recordAccess(
          db,
          {
            action: "two_factor_recovery_used",
            actor: account,
            detail: { left: outcome.recoveryCodesLeft },
            clientAddress,
          },
          now,
        );
      }
      const user = await db
        .selectFrom("users")
        .select(["id", "username", "role"])
        .where("id", "=", pending.userId)
        .executeTakeFirstOrThrow();
      const signedIn = await openSession(toPublicUser(user), clientAddress, now, userAgent, {
        twoFactor: outcome.method,
      });
      return outcome.method === "enrolled" ? { ...signedIn, recoveryCodes: outcome.recoveryCodes } : signedIn;
    },

    /** Two-factor sign-in as its owner manages it on /admin/account. */
    twoFactor: {
      status: (userId: number) => twoFactorStatus(db, userId),

      /** Starts (or resumes) an enrolment: the secret, its otpauth URI and QR code. */
      async enrol(user: PublicUser): Promise<EnrolmentView> {
        await enrolmentSecret(db, keys, user.id);
        const view = await enrolmentView(user.id, user.username);
        if (!view) throw new Error("the enrolment secret just stored cannot be read");
        return view;
      },

      /** The enrolment in progress, if one is. */
      enrolment: (user: PublicUser) => enrolmentView(user.id, user.username),

      /** Drops an enrolment that was started and not confirmed. */
      cancelEnrolment: (user: PublicUser) => cancelEnrolment(db, user.id),

      /**
       * Turns it on with the first code and the owner's password (a borrowed session alone must not
       * put someone else's phone on the account): the recovery codes to show once, null for a wrong
       * code, or why the password was not accepted (throttled like a sign-in).
       */
      async confirm(
        user: PublicUser,
        code: string,
        password: string,
        clientAddress: string,
        now = new Date(),
      ): Promise<{ recoveryCodes: string[] } | null | "invalid" | "busy" | { throttled: number }> {
        const proven = await proveOwner(user, { password }, clientAddress, now);
        if (proven !== "ok") return proven;
        return confirmEnrolment(db, keys, user, code, { now, clientAddress });
      },

      /**
       * Turns it off, proven by a current code (or a recovery code) or the password. Throttled like a
       * sign-in: a borrowed session must not be a way to guess either. "required": the setting forbids it.
       */
      async disable(
        user: PublicUser,
        proof: { code: string } | { password: string },
        clientAddress: string,
        now = new Date(),
      ): Promise<"off" | "invalid" | "required" | "busy" | { throttled: number }> {
        if (twoFactorRequired) return "required";
        const proven = await proveOwner(user, proof, clientAddress, now);
        if (proven !== "ok") return proven;
        await disableTwoFactor(db, user, { now, clientAddress });
        return "off";
      },

      /** Ten new recovery codes (the old ones stop working), proven by a current code. */
      async renewRecoveryCodes(
        user: PublicUser,
        code: string,
        clientAddress: string,
        now = new Date(),
      ): Promise<string[] | "invalid" | "busy" | { throttled: number }> {
        const proven = await proveOwner(user, { code }, clientAddress, now);
        if (proven !== "ok") return proven;
        return renewRecoveryCodes(db, keys, user, { now, clientAddress });
      },
    },

    /**
     * The days with 5 or more wrong codes from untrusted clients that the owner has not dismissed
     * (issue 32 point 3): the back office tells them at their next sign-in.
     */
    codeFailureNotices: (userId: number) => codeFailureNotices(db, userId),
    dismissCodeFailureNotices: (userId: number, now = new Date()) =>
      dismissCodeFailureNotices(db, userId, now),

    /** Abandons a pending login (the person starts again). */
    async cancelPendingLogin(token: string | undefined): Promise<void> {
      if (token) await forgetPendingLogin(db, token);
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
      await prunePendingLogins(db, now);
      await pruneSetPasswordLinks(db, now);
      await throttle.prune(now.getTime());
      await pruneCodeFailures(db, now);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
