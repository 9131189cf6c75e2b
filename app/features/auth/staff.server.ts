import { randomBytes } from "node:crypto";
import type { Kysely, Selectable, Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database, UsersTable } from "#app/db/schema.ts";
import { isAdminRole, type Role } from "#app/lib/permissions.ts";
import { hashPassword } from "./password.server.ts";
import { endUserSessions, hashToken } from "./sessions.server.ts";
import { checkStaffEmail } from "./staff-email.ts";
import { recordStaffEvent, type StaffAction, type StaffActor } from "./staff-events.server.ts";
import { LINK_GONE_MESSAGE } from "./staff-messages.ts";
import {
  checkUsername,
  duplicateUsernameMessage,
  findUserByUsername,
  NO_PASSWORD,
  passwordProblem,
  roleColumns,
  storedRole,
  UserInputError,
  usernameKey,
} from "./users.server.ts";

// Staff accounts as the back office manages them (issue 10, ADR 011): each has a role, admin, sales or
// marketing (issue 23, ADR 021; permissions.ts says what each may do). Admins create colleagues (with a password or a one-time
// set-password link), disable and enable them, reset their passwords; every change is recorded in
// staff_events. One rule holds under concurrent requests too: at least one admin (the role) stays
// enabled with a password, so the back office can never lock everyone out.

type Db = Kysely<Database> | Transaction<Database>;

/** A staff account as the staff page and GET /api/admin/users show it: never a hash. */
export type StaffMember = {
  id: number;
  username: string;
  /** Null: an account without back-office access (the SPEC's non-admin user). */
  role: Role | null;
  /** The SPEC's flag, derived from the role. */
  isAdmin: boolean;
  disabled: boolean;
  /** False while the account waits for its set-password link to be used. */
  passwordSet: boolean;
  /** Two-factor sign-in is on (issue 13). */
  twoFactor: boolean;
  /** Where meeting invitations for this account go (issue 34); null: none set. */
  email: string | null;
  lastSignInAt: string | null;
  createdAt: string;
};

/** A set-password link's secret part (shown once) and when it stops working. */
export type SetPasswordLink = { token: string; expiresAt: string };

/** How long a set-password link works: long enough for a weekend, short enough to go stale. */
export const SET_PASSWORD_LINK_TTL_MS = 72 * 3_600_000;

export const LAST_ADMIN_MESSAGE =
  "At least one enabled admin with a password must remain: enable or add another admin first.";
export const NOT_FOUND_MESSAGE = "No such staff account.";
export const OWN_LINK_MESSAGE = "Choose a new password for your own account instead of a link.";
export const DISABLED_LINK_MESSAGE = "Enable the account before giving it a set-password link.";
export const OWN_TWO_FACTOR_MESSAGE =
  "Manage your own two-factor sign-in on your account page: turning it off there needs your code or password.";

/** Why a change was refused: 404 for an unknown account, 409 when it would break the last-admin rule. */
export class StaffChangeError extends Error {
  readonly status: 404 | 409;
  constructor(message: string, status: 404 | 409) {
    super(message);
    this.status = status;
  }
}

const MEMBER_COLUMNS = [
  "id",
  "username",
  "role",
  "disabled",
  "passwordHash",
  "lastSignInAt",
  "createdAt",
  "totpEnabledAt",
  "email",
] as const;

type MemberRow = Pick<Selectable<UsersTable>, (typeof MEMBER_COLUMNS)[number]>;

function toMember(row: MemberRow): StaffMember {
  const role = storedRole(row.role);
  return {
    id: Number(row.id),
    username: row.username,
    role,
    isAdmin: isAdminRole(role),
    disabled: Boolean(row.disabled),
    passwordSet: row.passwordHash !== NO_PASSWORD,
    twoFactor: row.totpEnabledAt !== null,
    email: row.email,
    lastSignInAt: row.lastSignInAt,
    createdAt: row.createdAt,
  };
}

/** Every account, by username (case-insensitive): the staff page, the API, and owners on leads. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db.selectFrom("users").select(MEMBER_COLUMNS).orderBy("usernameKey").execute();
  return rows.map(toMember);
}

export async function findStaffMember(db: Db, id: number): Promise<StaffMember | undefined> {
  const row = await db.selectFrom("users").select(MEMBER_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toMember(row) : undefined;
}

async function requireMember(db: Db, id: number): Promise<StaffMember> {
  const member = await findStaffMember(db, id);
  if (!member) throw new StaffChangeError(NOT_FOUND_MESSAGE, 404);
  return member;
}

/** An admin (the role) who can sign in: the kind of account that must never run out. */
const canSignIn = (member: StaffMember) => member.role === "admin" && !member.disabled && member.passwordSet;

/**
 * Refuses (409) a change that would leave no admin who can sign in, `target` being the account about
 * to lose that. NOTE: on PostgreSQL every admin row is locked first (in id order, so two of these
 * cannot deadlock), so two admins disabling each other at once are serialised: the second sees the
 * first's commit and is refused. SQLite transactions take the single write lock up front
 * (BEGIN IMMEDIATE), which serialises them the same way.
 */
async function keepAnAdmin(trx: Transaction<Database>, target: StaffMember): Promise<void> {
  if (!canSignIn(target)) return;
  const others = await trx
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("role", "=", "admin")
    .where("disabled", "=", 0)
    .where("passwordHash", "<>", NO_PASSWORD)
    .where("id", "<>", target.id)
    .executeTakeFirstOrThrow();
  if (Number(others.count) === 0) throw new StaffChangeError(LAST_ADMIN_MESSAGE, 409);
}

async function lockAdmins(trx: Transaction<Database>): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.selectFrom("users").select("id").where("role", "=", "admin").orderBy("id").forUpdate().execute();
}

async function insertLink(trx: Db, userId: number, actor: StaffActor, now: Date): Promise<SetPasswordLink> {
  // One live link per account: a new one replaces any that was handed out before.
  await trx.deleteFrom("setPasswordLinks").where("userId", "=", userId).execute();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SET_PASSWORD_LINK_TTL_MS).toISOString();
  await trx
    .insertInto("setPasswordLinks")
    .values({
      tokenHash: hashToken(token),
      userId,
      createdByUserId: actor.id,
      createdAt: now.toISOString(),
      expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

function checkedPassword(password: string): string {
  const problem = passwordProblem(password);
  if (problem) throw new UserInputError(problem);
  return password;
}

/**
 * Creates an account with `role` (admin unless said) and `password`, or without one and with a
 * set-password link (returned once). UserInputError for a bad username or password, or one that
 * exists already (in any case).
 */
export async function createStaffMember(
  db: Kysely<Database>,
  input: { username: string; password?: string; role?: Role; email?: string | null },
  actor: StaffActor,
  now = new Date(),
): Promise<{ member: StaffMember; link?: SetPasswordLink }> {
  const name = checkUsername(input.username);
  const email = checkStaffEmail(input.email);
  if (!email.ok) throw new UserInputError(email.message);
  const password = input.password === undefined ? undefined : checkedPassword(input.password);
  const existing = await findUserByUsername(db, name);
  if (existing) throw new UserInputError(duplicateUsernameMessage(existing.username));
  // Hashed before the transaction: scrypt takes tens of milliseconds, the write lock should not.
  const passwordHash = password === undefined ? NO_PASSWORD : await hashPassword(password);
  const timestamp = now.toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("users")
        .values({
          username: name,
          usernameKey: usernameKey(name),
          passwordHash,
          ...roleColumns(input.role ?? "admin"),
          email: email.email,
          createdAt: timestamp,
          updatedAt: timestamp,
        })
        .returning(MEMBER_COLUMNS)
        .executeTakeFirstOrThrow();
      const member = toMember(row);
      await recordStaffEvent(trx, member.id, "created", actor, now, { role: member.role ?? "none" });
      if (password !== undefined) return { member };
      const link = await insertLink(trx, member.id, actor, now);
      await recordStaffEvent(trx, member.id, "link_issued", actor, now);
      return { member, link };
    });
  } catch (error) {
    // Someone created the same name between the check and the insert: the unique key refused it.
    const raced = await findUserByUsername(db, name).catch(() => undefined);
    if (raced) throw new UserInputError(duplicateUsernameMessage(raced.username));
    throw error;
  }
}

/**
 * Disables or enables an account. Disabling deletes its sessions and set-password links in the
 * same transaction, so it is signed out on every instance at once; it is refused (409) when it would
 * leave no enabled admin with a password. Setting the state it already has records nothing.
 */
export async function setStaffDisabled(
  db: Kysely<Database>,
  { id, disabled, actor }: { id: number; disabled: boolean; actor: StaffActor },
  now = new Date(),
): Promise<StaffMember> {
  return db.transaction().execute(async (trx) => {
    await lockAdmins(trx);
    const member = await requireMember(trx, id);
    if (member.disabled === disabled) return member;
    if (disabled) await keepAnAdmin(trx, member);
    await trx
      .updateTable("users")
      .set({ disabled: disabled ? 1 : 0, updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    if (disabled) {
      await endUserSessions(trx, id);
      await trx.deleteFrom("setPasswordLinks").where("userId", "=", id).execute();
    }
    await recordStaffEvent(trx, id, disabled ? "disabled" : "enabled", actor, now);
    return { ...member, disabled };
  });
}

/**
 * Gives an account another role. It holds from the account's next request, on every instance: the
 * guards read the role with the session each time. Refused (409) when it would leave no enabled admin
 * with a password (the last admin cannot stop being one). The same role again records nothing.
 */
export async function setStaffRole(
  db: Kysely<Database>,
  { id, role, actor }: { id: number; role: Role; actor: StaffActor },
  now = new Date(),
): Promise<StaffMember> {
  return db.transaction().execute(async (trx) => {
    await lockAdmins(trx);
    const member = await requireMember(trx, id);
    if (member.role === role) return member;
    if (role !== "admin") await keepAnAdmin(trx, member);
    await trx
      .updateTable("users")
      .set({ ...roleColumns(role), updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await recordStaffEvent(trx, id, "role_changed", actor, now, { from: member.role ?? "none", to: role });
    return { ...member, role, isAdmin: isAdminRole(role) };
  });
}

/**
 * Sets (or, with null or "", clears) the account's e-mail address (issue 34): meeting invitations go
 * to it. UserInputError for anything but one address (staff-email.ts). The same address again is no
 * change.
 */
export async function setStaffEmail(
  db: Kysely<Database>,
  { id, email }: { id: number; email: unknown },
  now = new Date(),
): Promise<StaffMember> {
  const checked = checkStaffEmail(email);
  if (!checked.ok) throw new UserInputError(checked.message);
  const member = await requireMember(db, id);
  if (member.email === checked.email) return member;
  await db
    .updateTable("users")
    .set({ email: checked.email, updatedAt: now.toISOString() })
    .where("id", "=", id)
    .execute();
  return { ...member, email: checked.email };
}

/**
 * Sets a new password and signs the account out everywhere (its sessions may be the reason for the
 * reset), except the session `keepSessionToken` when people change their own password. Outstanding
 * set-password links stop working. A disabled account stays disabled.
 */
export async function setStaffPassword(
  db: Kysely<Database>,
  {
    id,
    password,
    actor,
    keepSessionToken,
  }: { id: number; password: string; actor: StaffActor; keepSessionToken?: string },
  now = new Date(),
): Promise<StaffMember> {
  checkedPassword(password);
  await requireMember(db, id);
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const member = await requireMember(trx, id);
    await trx
      .updateTable("users")
      .set({ passwordHash, updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await endUserSessions(trx, id, keepSessionToken);
    await trx.deleteFrom("setPasswordLinks").where("userId", "=", id).execute();
    await recordStaffEvent(trx, id, "password_reset", actor, now);
    return { ...member, passwordSet: true };
  });
}

/**
 * A password reset by link: the old password stops working at once, the account is signed out
 * everywhere, and the returned link (shown once) lets its owner choose a new one. Not for one's own
 * account (set a password instead), nor a disabled one; refused (409) when the account is the last
 * admin who can sign in.
 */
export async function issueSetPasswordLink(
  db: Kysely<Database>,
  { id, actor }: { id: number; actor: StaffActor },
  now = new Date(),
): Promise<{ member: StaffMember; link: SetPasswordLink }> {
  if (actor.id === id) throw new StaffChangeError(OWN_LINK_MESSAGE, 409);
  return db.transaction().execute(async (trx) => {
    await lockAdmins(trx);
    const member = await requireMember(trx, id);
    if (member.disabled) throw new StaffChangeError(DISABLED_LINK_MESSAGE, 409);
    await keepAnAdmin(trx, member);
    await trx
      .updateTable("users")
      .set({ passwordHash: NO_PASSWORD, updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await endUserSessions(trx, id);
    const link = await insertLink(trx, id, actor, now);
    await recordStaffEvent(trx, id, "link_issued", actor, now);
    return { member: { ...member, passwordSet: false }, link };
  });
}

/**
 * A set-up link for an account that keeps its password (issue 22 point 3, ADR 020): the command
 * line's way to let an account set up two-factor sign-in when STAFF_2FA_REQUIRED is on (the first
 * admin, or one whose phone was lost and no other admin can help). Nothing is voided: under the
 * requirement the password alone opens nothing; the link, used, sets a new password and starts the
 * set-up in that browser. Not for a disabled account.
 */
export async function issueSetupLink(
  db: Kysely<Database>,
  { id, actor }: { id: number; actor: StaffActor },
  now = new Date(),
): Promise<{ member: StaffMember; link: SetPasswordLink }> {
  return db.transaction().execute(async (trx) => {
    const member = await requireMember(trx, id);
    if (member.disabled) throw new StaffChangeError(DISABLED_LINK_MESSAGE, 409);
    const link = await insertLink(trx, id, actor, now);
    await recordStaffEvent(trx, id, "link_issued", actor, now);
    return { member, link };
  });
}

/**
 * Signs `id` out on every device and instance at once (a lost laptop, a shared computer): its
 * sessions are deleted and the act is recorded. The account itself stays as it was.
 */
export async function signOutEverywhere(
  db: Kysely<Database>,
  { id, actor }: { id: number; actor: StaffActor },
  now = new Date(),
): Promise<{ member: StaffMember; ended: number }> {
  return db.transaction().execute(async (trx) => {
    const member = await requireMember(trx, id);
    const ended = await endUserSessions(trx, id);
    await recordStaffEvent(trx, id, "signed_out", actor, now);
    return { member, ended };
  });
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The account a live set-password link belongs to, or null (unknown, used, expired, disabled). */
export async function findSetPasswordLink(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ userId: number; username: string; expiresAt: string } | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const row = await db
    .selectFrom("setPasswordLinks")
    .innerJoin("users", "users.id", "setPasswordLinks.userId")
    .select(["users.id", "users.username", "users.disabled", "setPasswordLinks.expiresAt"])
    .where("setPasswordLinks.tokenHash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row || row.disabled || row.expiresAt <= now.toISOString()) return null;
  return { userId: Number(row.id), username: row.username, expiresAt: row.expiresAt };
}

/**
 * Uses a set-password link: the password is set and the link is gone, in one transaction that
 * deletes the link first, so two submissions of one link cannot both succeed.
 */
export async function redeemSetPasswordLink(
  db: Kysely<Database>,
  token: string,
  password: string,
  now = new Date(),
): Promise<{ userId: number; username: string }> {
  checkedPassword(password);
  const live = await findSetPasswordLink(db, token, now);
  if (!live) throw new StaffChangeError(LINK_GONE_MESSAGE, 404);
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .deleteFrom("setPasswordLinks")
      .where("tokenHash", "=", hashToken(token))
      .where("expiresAt", ">", now.toISOString())
      .returning("userId")
      .executeTakeFirst();
    const member = used ? await findStaffMember(trx, Number(used.userId)) : undefined;
    if (!member || member.disabled) throw new StaffChangeError(LINK_GONE_MESSAGE, 404);
    await trx
      .updateTable("users")
      .set({ passwordHash, updatedAt: now.toISOString() })
      .where("id", "=", member.id)
      .execute();
    await endUserSessions(trx, member.id);
    await recordStaffEvent(trx, member.id, "link_used", { id: member.id, username: member.username }, now);
    return { userId: member.id, username: member.username };
  });
}

/** Drops expired set-password links (the periodic prune; using one also checks its expiry). */
export async function pruneSetPasswordLinks(db: Db, now = new Date()): Promise<void> {
  await db.deleteFrom("setPasswordLinks").where("expiresAt", "<=", now.toISOString()).execute();
}

export type { StaffAction, StaffActor };
