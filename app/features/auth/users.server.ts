import type { Kysely, Selectable } from "kysely";
import type { Database, UsersTable } from "#app/db/schema.ts";
import { isAdminRole, isRole, type Role } from "#app/lib/permissions.ts";
import type { StaffUser } from "#app/lib/staff-guard.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password.server.ts";
import { USERNAME_PATTERN, USERNAME_RULE } from "./password-rules.ts";

/**
 * A user as the API shows it (SPEC section 3): never the password hash. `role` decides access
 * (permissions.ts); `isAdmin` is the SPEC's flag, derived from it.
 */
/** An account as the rest of the app sees it: the guard's StaffUser (lib/staff-guard.server.ts). */
export type PublicUser = StaffUser;

/**
 * The stored "hash" of an account that has no password yet (created with a set-password link, or
 * reset with one). It is not a scrypt hash, so no password ever matches it.
 */
export const NO_PASSWORD = "!none";

export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}

/** The stored role, read strictly: anything else is no role (no access), never a guess. */
export function storedRole(value: string | null): Role | null {
  return isRole(value) ? value : null;
}

/** The columns a role is written to: `role`, and the SPEC's is_admin kept in step with it. */
export function roleColumns(role: Role | null): { role: Role | null; isAdmin: 0 | 1 } {
  return { role, isAdmin: isAdminRole(role) ? 1 : 0 };
}

export function toPublicUser(row: Pick<Selectable<UsersTable>, "id" | "username" | "role">): PublicUser {
  const role = storedRole(row.role);
  return { id: Number(row.id), username: row.username, role, isAdmin: isAdminRole(role) };
}

/** Why a new password is not acceptable, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  // The sign-in form refuses NUL (PostgreSQL cannot store it in text): such a password could never be used.
  if (breaksTextRule(password, "no-nul")) return "The password may not contain NUL characters.";
  return null;
}

export class UserInputError extends Error {}

/** The trimmed username, or a UserInputError saying what is wrong with it. */
export function checkUsername(username: string): string {
  const name = username.trim();
  if (!USERNAME_PATTERN.test(name)) throw new UserInputError(`The username must be ${USERNAME_RULE}.`);
  return name;
}

export const duplicateUsernameMessage = (existing: string) => `A user named "${existing}" already exists.`;

/**
 * Creates an account with `role`; `isAdmin` alone (the SPEC's User, the command line) means the admin
 * role when true and no back-office role when false.
 */
export async function createUser(
  db: Kysely<Database>,
  {
    username,
    password,
    isAdmin,
    role = isAdmin ? "admin" : null,
  }: { username: string; password: string; isAdmin?: boolean; role?: Role | null },
  now = new Date(),
): Promise<PublicUser> {
  const name = checkUsername(username);
  const problem = passwordProblem(password);
  if (problem) throw new UserInputError(problem);
  const existing = await findUserByUsername(db, name);
  if (existing) throw new UserInputError(duplicateUsernameMessage(existing.username));
  const timestamp = now.toISOString();
  const row = await db
    .insertInto("users")
    .values({
      username: name,
      usernameKey: usernameKey(name),
      passwordHash: await hashPassword(password),
      ...roleColumns(role),
      createdAt: timestamp,
      updatedAt: timestamp,
    })
    .returning(["id", "username", "role"])
    .executeTakeFirstOrThrow();
  return toPublicUser(row);
}

export function findUserByUsername(db: Kysely<Database>, username: string) {
  return db
    .selectFrom("users")
    .selectAll()
    .where("usernameKey", "=", usernameKey(username))
    .executeTakeFirst();
}

export async function countAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
