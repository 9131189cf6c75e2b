import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { hashToken } from "./sessions.server.ts";
import { NO_PASSWORD } from "./users.server.ts";

// A pending login (issue 13, ADR 017): the password was right and the account needs a second step.
// The browser holds a random token in a five-minute HttpOnly cookie; the database holds its SHA-256,
// bound to the user. It opens nothing by itself: only a right code turns it into a session, once.

type Db = Kysely<Database> | Transaction<Database>;

export const PENDING_LOGIN_TTL_MS = 5 * 60_000;
export type PendingPurpose = "verify" | "enrol";
export type PendingLogin = {
  userId: number;
  username: string;
  purpose: PendingPurpose;
  /** "enrol": the encrypted secret this sign-in enrols (two-factor-store.server.ts seals it). */
  totpSecret: string | null;
};

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export async function createPendingLogin(
  db: Db,
  userId: number,
  purpose: PendingPurpose,
  now = new Date(),
  totpSecret: string | null = null,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db
    .insertInto("pendingLogins")
    .values({
      tokenHash: hashToken(token),
      userId,
      purpose,
      totpSecret: purpose === "enrol" ? totpSecret : null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + PENDING_LOGIN_TTL_MS).toISOString(),
    })
    .execute();
  return token;
}

/** The live pending login of `token`, or null (unknown, used, expired, or the account may not sign in). */
export async function findPendingLogin(
  db: Db,
  token: string,
  now = new Date(),
): Promise<PendingLogin | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const row = await db
    .selectFrom("pendingLogins")
    .innerJoin("users", "users.id", "pendingLogins.userId")
    .select([
      "users.id",
      "users.username",
      "pendingLogins.purpose",
      "pendingLogins.totpSecret",
      "pendingLogins.expiresAt",
    ])
    .where("pendingLogins.tokenHash", "=", hashToken(token))
    .where("users.disabled", "=", 0)
    .where("users.passwordHash", "<>", NO_PASSWORD)
    .executeTakeFirst();
  if (!row || row.expiresAt <= now.toISOString()) return null;
  return {
    userId: Number(row.id),
    username: row.username,
    purpose: row.purpose === "enrol" ? "enrol" : "verify",
    totpSecret: row.purpose === "enrol" ? row.totpSecret : null,
  };
}

/**
 * Wrong codes one pending login allows (issue 22 point 2): then it is gone and the password is needed
 * again, which the sign-in throttle bounds, so codes cannot be guessed from many addresses at once on
 * one right password.
 */
export const MAX_CODE_ATTEMPTS = 5;

/**
 * Admits one code attempt on the pending login of `token` BEFORE the code is checked, in one
 * conditional UPDATE, so parallel requests cannot check more than MAX_CODE_ATTEMPTS codes between
 * them: how many attempts it has had with this one, or null when it is gone, expired or used up.
 */
export async function takeCodeAttempt(db: Db, token: string, now = new Date()): Promise<number | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const row = await db
    .updateTable("pendingLogins")
    .set((eb) => ({ codeAttempts: eb("codeAttempts", "+", 1) }))
    .where("tokenHash", "=", hashToken(token))
    .where("expiresAt", ">", now.toISOString())
    .where("codeAttempts", "<", MAX_CODE_ATTEMPTS)
    .returning("codeAttempts")
    .executeTakeFirst();
  return row ? Number(row.codeAttempts) : null;
}

/** Uses the pending login up: true for the one caller that deleted it while it was live. */
export async function consumePendingLogin(db: Db, token: string, now = new Date()): Promise<boolean> {
  if (!TOKEN_SHAPE.test(token)) return false;
  const result = await db
    .deleteFrom("pendingLogins")
    .where("tokenHash", "=", hashToken(token))
    .where("expiresAt", ">", now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function forgetPendingLogin(db: Db, token: string): Promise<void> {
  if (TOKEN_SHAPE.test(token))
    await db.deleteFrom("pendingLogins").where("tokenHash", "=", hashToken(token)).execute();
}

/** Deletes the pending logins past their 5 minutes; answers how many went. */
export async function prunePendingLogins(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("pendingLogins")
    .where("expiresAt", "<=", now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many pending logins are past their 5 minutes (the retention purge's dry run). */
export async function countExpiredPendingLogins(db: Db, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom("pendingLogins")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("expiresAt", "<=", now.toISOString())
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
