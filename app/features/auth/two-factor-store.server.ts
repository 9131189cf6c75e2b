import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import { reopenCodeStep } from "./code-failures.server.ts";
import {
  findStaffMember,
  NOT_FOUND_MESSAGE,
  OWN_TWO_FACTOR_MESSAGE,
  StaffChangeError,
} from "./staff.server.ts";
import { recordStaffEvent, type StaffActor } from "./staff-events.server.ts";
import {
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  matchTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  type TwoFactorKeys,
} from "./two-factor.server.ts";

// Two-factor sign-in as stored (issue 13, ADR 017): enrolment, confirmation, checking a code,
// recovery codes, turning it off and an admin's reset. Every check that must hold across requests
// and instances is one conditional UPDATE: a TOTP step is taken only if it is later than the last
// one taken (no replay, even by two requests at once), and a recovery code only if still unused.

type Db = Kysely<Database> | Transaction<Database>;
type Account = { id: number; username: string };

export type TwoFactorStatus = {
  enabled: boolean;
  enabledAt: string | null;
  /** Unused recovery codes. */
  recoveryCodesLeft: number;
};

export class TwoFactorError extends Error {}
export const ALREADY_ON = "Two-factor sign-in is already on for this account.";

export async function twoFactorStatus(db: Db, userId: number): Promise<TwoFactorStatus> {
  const user = await db
    .selectFrom("users")
    .select("totpEnabledAt")
    .where("id", "=", userId)
    .executeTakeFirst();
  const enabledAt = user?.totpEnabledAt ?? null;
  if (!enabledAt) return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
  const left = await db
    .selectFrom("recoveryCodes")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("userId", "=", userId)
    .where("usedAt", "is", null)
    .executeTakeFirstOrThrow();
  return { enabled: true, enabledAt, recoveryCodesLeft: Number(left.count) };
}

/**
 * The secret an enrolment waits to confirm, started now if none waits: an enrolment that was begun
 * (and perhaps already scanned) keeps its secret until confirmed or reset. TwoFactorError when on.
 */
export async function enrolmentSecret(db: Db, keys: TwoFactorKeys, userId: number): Promise<string> {
  const user = await db
    .selectFrom("users")
    .select(["totpSecret", "totpEnabledAt"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  if (user.totpEnabledAt) throw new TwoFactorError(ALREADY_ON);
  if (user.totpSecret) {
    try {
      return decryptSecret(user.totpSecret, keys);
    } catch {
      // Sealed under another app secret (APP_SECRET changed): start afresh, nothing was on yet.
    }
  }
  const secret = newTotpSecret();
  await db
    .updateTable("users")
    .set({ totpSecret: encryptSecret(secret, keys), totpEnabledAt: null, totpLastStep: null })
    .where("id", "=", userId)
    .where("totpEnabledAt", "is", null)
    .execute();
  return secret;
}

/**
 * A new secret for an enrolment begun at sign-in, sealed for its pending login (ADR 017): never
 * stored on the user until its first code confirms it. TwoFactorError when two-factor is on already.
 */
export async function sealSignInEnrolmentSecret(
  db: Db,
  keys: TwoFactorKeys,
  userId: number,
): Promise<string> {
  const user = await db
    .selectFrom("users")
    .select("totpEnabledAt")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  if (user.totpEnabledAt) throw new TwoFactorError(ALREADY_ON);
  return encryptSecret(newTotpSecret(), keys);
}

/** The secret sealed for a sign-in's enrolment, or null when it cannot be read (another app secret). */
export function openSignInEnrolmentSecret(sealed: string | null, keys: TwoFactorKeys): string | null {
  if (!sealed) return null;
  try {
    return decryptSecret(sealed, keys);
  } catch {
    return null;
  }
}

/** The secret of an enrolment in progress, or null when none is (nothing is created). */
export async function pendingEnrolmentSecret(
  db: Db,
  keys: TwoFactorKeys,
  userId: number,
): Promise<string | null> {
  const user = await db
    .selectFrom("users")
    .select(["totpSecret", "totpEnabledAt"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user?.totpSecret || user.totpEnabledAt) return null;
  try {
    return decryptSecret(user.totpSecret, keys);
  } catch {
    return null;
  }
}

/**
 * Turns two-factor sign-in on when `code` is right for the waiting secret: ten new recovery codes
 * come back (shown once, kept hashed). Null for a wrong code, or when no enrolment waits.
 */
export async function confirmEnrolment(
  db: Kysely<Database>,
  keys: TwoFactorKeys,
  account: Account,
  code: string,
  {
    now = new Date(),
    clientAddress = null,
    signInSecret,
  }: {
    now?: Date;
    clientAddress?: string | null;
    /** An enrolment begun at sign-in: the secret sealed on its pending login, not the user's. */
    signInSecret?: string | null;
  } = {},
): Promise<{ recoveryCodes: string[] } | null> {
  const user = await db
    .selectFrom("users")
    .select(["totpSecret", "totpEnabledAt"])
    .where("id", "=", account.id)
    .executeTakeFirst();
  if (!user || user.totpEnabledAt) return null;
  const sealed = signInSecret === undefined ? user.totpSecret : signInSecret;
  if (!sealed) return null;
  let secret: string;
  try {
    secret = decryptSecret(sealed, keys);
  } catch {
    return null;
  }
  const step = matchTotpStep(secret, code, now.getTime());
  if (step === null) return null;
  const recoveryCodes = newRecoveryCodes();
  const confirmed = await db.transaction().execute(async (trx) => {
    // Only the very secret the code was checked against, and only once.
    let update = trx
      .updateTable("users")
      .set({ totpSecret: sealed, totpEnabledAt: now.toISOString(), totpLastStep: step })
      .where("id", "=", account.id)
      .where("totpEnabledAt", "is", null);
    if (signInSecret === undefined) update = update.where("totpSecret", "=", sealed);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await storeRecoveryCodes(trx, keys, account.id, recoveryCodes, now);
    await recordAccess(trx, { action: "two_factor_enabled", actor: account, clientAddress }, now);
    return true;
  });
  return confirmed ? { recoveryCodes } : null;
}

async function storeRecoveryCodes(
  trx: Db,
  keys: TwoFactorKeys,
  userId: number,
  codes: string[],
  now: Date,
): Promise<void> {
  await trx.deleteFrom("recoveryCodes").where("userId", "=", userId).execute();
  await trx
    .insertInto("recoveryCodes")
    .values(
      codes.map((code) => ({
        userId,
        codeHash: hashRecoveryCode(code, keys),
        createdAt: now.toISOString(),
        usedAt: null,
      })),
    )
    .execute();
}

export type SecondFactor = { method: "app" } | { method: "recovery"; recoveryCodesLeft: number };

/**
 * Checks a code from the authenticator app or a recovery code for an account with two-factor
 * sign-in on; null when wrong, already used, or the account has it off. A recovery code is used up.
 */
export async function checkSecondFactor(
  db: Db,
  keys: TwoFactorKeys,
  userId: number,
  code: string,
  now = new Date(),
): Promise<SecondFactor | null> {
  const user = await db
    .selectFrom("users")
    .select(["totpSecret", "totpEnabledAt"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user?.totpSecret || !user.totpEnabledAt) return null;
  if (looksLikeRecoveryCode(code)) {
    const used = await db
      .updateTable("recoveryCodes")
      .set({ usedAt: now.toISOString() })
      .where("userId", "=", userId)
      .where("codeHash", "=", hashRecoveryCode(code, keys))
      .where("usedAt", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return null;
    const { recoveryCodesLeft } = await twoFactorStatus(db, userId);
    return { method: "recovery", recoveryCodesLeft };
  }
  let secret: string;
  try {
    secret = decryptSecret(user.totpSecret, keys);
  } catch {
    return null;
  }
  const step = matchTotpStep(secret, code, now.getTime());
  if (step === null) return null;
  // Taken only if later than every step taken before: the same code (or an older one) never twice.
  const taken = await db
    .updateTable("users")
    .set({ totpLastStep: step })
    .where("id", "=", userId)
    .where("totpEnabledAt", "is not", null)
    .where((eb) => eb.or([eb("totpLastStep", "is", null), eb("totpLastStep", "<", step)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? { method: "app" } : null;
}

/**
 * Whether `code` is the app's code for a step already taken (issue 22 point 5): the person signed in
 * or turned two-factor sign-in on with it moments ago and must wait for the next one. Only asked
 * after checkSecondFactor refused the code; it never makes a code acceptable.
 */
export async function isSpentAppCode(
  db: Db,
  keys: TwoFactorKeys,
  userId: number,
  code: string,
  now = new Date(),
): Promise<boolean> {
  if (looksLikeRecoveryCode(code)) return false;
  const user = await db
    .selectFrom("users")
    .select(["totpSecret", "totpEnabledAt", "totpLastStep"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user?.totpSecret || !user.totpEnabledAt || user.totpLastStep === null) return false;
  let secret: string;
  try {
    secret = decryptSecret(user.totpSecret, keys);
  } catch {
    return false;
  }
  const step = matchTotpStep(secret, code, now.getTime());
  return step !== null && step <= Number(user.totpLastStep);
}

/** Ten new recovery codes in place of the old ones (all of which stop working). */
export async function renewRecoveryCodes(
  db: Kysely<Database>,
  keys: TwoFactorKeys,
  account: Account,
  { now = new Date(), clientAddress = null }: { now?: Date; clientAddress?: string | null } = {},
): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.transaction().execute(async (trx) => {
    await storeRecoveryCodes(trx, keys, account.id, codes, now);
    await recordAccess(trx, { action: "two_factor_codes_renewed", actor: account, clientAddress }, now);
  });
  return codes;
}

async function clearTwoFactor(trx: Db, userId: number): Promise<boolean> {
  const result = await trx
    .updateTable("users")
    .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where("id", "=", userId)
    .where("totpSecret", "is not", null)
    .executeTakeFirst();
  await trx.deleteFrom("recoveryCodes").where("userId", "=", userId).execute();
  return Number(result.numUpdatedRows) === 1;
}

/** Drops an enrolment that was started and never confirmed (nothing happens when it is on). */
export async function cancelEnrolment(db: Db, userId: number): Promise<void> {
  await db
    .updateTable("users")
    .set({ totpSecret: null, totpLastStep: null })
    .where("id", "=", userId)
    .where("totpEnabledAt", "is", null)
    .execute();
}

/** The account's owner turns it off (the caller has checked a current code or the password). */
export async function disableTwoFactor(
  db: Kysely<Database>,
  account: Account,
  { now = new Date(), clientAddress = null }: { now?: Date; clientAddress?: string | null } = {},
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await clearTwoFactor(trx, account.id))
      await recordAccess(trx, { action: "two_factor_disabled", actor: account, clientAddress }, now);
  });
}

/**
 * An admin (or the operator's command line) resets someone's two-factor sign-in: a lost phone. The
 * account signs in with its password next time and, if the setting requires it, enrols again. Its
 * sign-ins waiting for a code end. Recorded on the staff page and in the access log; false (and
 * nothing recorded) when the account had none.
 */
export async function resetTwoFactor(
  db: Kysely<Database>,
  { id, actor }: { id: number; actor: StaffActor },
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await clearTwoFactor(trx, id))) return false;
    await trx.deleteFrom("pendingLogins").where("userId", "=", id).execute();
    // A second factor set up again today must not find its code step closed by the old one's guessing.
    await reopenCodeStep(trx, id, now);
    await recordStaffEvent(trx, id, "two_factor_reset", actor, now);
    return true;
  });
}

/**
 * An admin resets a colleague's two-factor sign-in (a lost phone): recorded; their next sign-in is
 * with the password alone, or enrols again when STAFF_2FA_REQUIRED is on. Not one's own account
 * (that needs a current code or the password, on /admin/account). False when there was none.
 */
export async function resetColleagueTwoFactor(
  db: Kysely<Database>,
  { id, actor }: { id: number; actor: StaffActor },
): Promise<boolean> {
  if (actor.id === id) throw new StaffChangeError(OWN_TWO_FACTOR_MESSAGE, 409);
  if (!(await findStaffMember(db, id))) throw new StaffChangeError(NOT_FOUND_MESSAGE, 404);
  return resetTwoFactor(db, { id, actor });
}

/**
 * An admin (or the operator's command line) reopens the code step an account's wrong codes closed for
 * today (issue 32 point 3): its second factor stays on, and untrusted clients may try 20 codes again.
 * Recorded on the staff page and in the access log; false (nothing recorded) when it had none today.
 */
export async function reopenTwoFactorCodes(
  db: Kysely<Database>,
  { id, actor }: { id: number; actor: StaffActor },
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await reopenCodeStep(trx, id, now))) return false;
    await recordStaffEvent(trx, id, "code_step_reopened", actor, now);
    return true;
  });
}

/** The staff page's "Reopen code step": a colleague's only, like the reset (not one's own account). */
export async function reopenColleagueTwoFactorCodes(
  db: Kysely<Database>,
  { id, actor }: { id: number; actor: StaffActor },
  now = new Date(),
): Promise<boolean> {
  if (actor.id === id) throw new StaffChangeError(OWN_TWO_FACTOR_MESSAGE, 409);
  if (!(await findStaffMember(db, id))) throw new StaffChangeError(NOT_FOUND_MESSAGE, 404);
  return reopenTwoFactorCodes(db, { id, actor }, now);
}
