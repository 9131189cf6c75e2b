import type { Kysely, Selectable } from "kysely";
import type { Database, UsersTable } from "#app/db/schema.ts";
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password.server.ts";

/** A user as the API shows it (SPEC section 3): never the password hash. */
export type PublicUser = { id: number; username: string; isAdmin: boolean };

export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{3,64}$/;

export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}

export function toPublicUser(row: Pick<Selectable<UsersTable>, "id" | "username" | "isAdmin">): PublicUser {
  return { id: Number(row.id), username: row.username, isAdmin: Boolean(row.isAdmin) };
}

/** Why a new password is not acceptable, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

export class UserInputError extends Error {}

export async function createUser(
  db: Kysely<Database>,
  { username, password, isAdmin }: { username: string; password: string; isAdmin: boolean },
  now = new Date(),
): Promise<PublicUser> {
  const name = username.trim();
  if (!USERNAME_PATTERN.test(name)) {
    throw new UserInputError("The username must be 3 to 64 letters, digits or . _ @ - characters.");
  }
  const problem = passwordProblem(password);
  if (problem) throw new UserInputError(problem);
  const existing = await findUserByUsername(db, name);
  if (existing) throw new UserInputError(`A user named "${existing.username}" already exists.`);
  const timestamp = now.toISOString();
  const row = await db
    .insertInto("users")
    .values({
      username: name,
      usernameKey: usernameKey(name),
      passwordHash: await hashPassword(password),
      isAdmin: isAdmin ? 1 : 0,
      createdAt: timestamp,
      updatedAt: timestamp,
    })
    .returning(["id", "username", "isAdmin"])
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

/** Sets a new password and signs the user out everywhere (their sessions may have been the reason). */
export async function setPassword(
  db: Kysely<Database>,
  username: string,
  password: string,
  now = new Date(),
) {
  const problem = passwordProblem(password);
  if (problem) throw new UserInputError(problem);
  const user = await findUserByUsername(db, username);
  if (!user) throw new UserInputError(`No user named "${username}".`);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ passwordHash, updatedAt: now.toISOString() })
      .where("id", "=", user.id)
      .execute();
    await trx.deleteFrom("sessions").where("userId", "=", user.id).execute();
  });
  return toPublicUser(user);
}

export async function countAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("isAdmin", "=", 1)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
