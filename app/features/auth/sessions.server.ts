import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type PublicUser, toPublicUser } from "./users.server.ts";

// Server-side sessions: the cookie holds an opaque random token; the database holds its SHA-256
// with idle and absolute expiry, so any instance on the same database recognises it and logout
// (or an expiry) ends it everywhere at once.

export type SessionPolicy = { idleMs: number; absoluteMs: number };

/** Writes last_seen_at at most this often: a busy admin page does not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export async function createSession(
  db: Kysely<Database>,
  userId: number,
  policy: SessionPolicy,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + policy.absoluteMs);
  await db
    .insertInto("sessions")
    .values({
      idHash: hashToken(token),
      userId,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    })
    .execute();
  return { token, expiresAt };
}

/** The user behind a session token, or null when unknown, idle too long or past its absolute expiry. */
export async function findSessionUser(
  db: Kysely<Database>,
  token: string,
  policy: SessionPolicy,
  now = new Date(),
  { waitForWrites = true }: { waitForWrites?: boolean } = {},
): Promise<PublicUser | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const idHash = hashToken(token);
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.userId")
    .select(["users.id", "users.username", "users.isAdmin", "sessions.lastSeenAt", "sessions.expiresAt"])
    .where("sessions.idHash", "=", idHash)
    // Disabling deletes the account's sessions; this also refuses one that a disable raced with.
    .where("users.disabled", "=", 0)
    .executeTakeFirst();
  if (!row) return null;
  const lastSeen = Date.parse(row.lastSeenAt);
  if (Date.parse(row.expiresAt) <= now.getTime() || lastSeen + policy.idleMs <= now.getTime()) {
    // Gone either way: if the delete fails (database busy), pruning removes the row later.
    await db
      .deleteFrom("sessions")
      .where("idHash", "=", idHash)
      .execute()
      .catch(() => {});
    return null;
  }
  if (now.getTime() - lastSeen >= TOUCH_INTERVAL_MS) {
    const touch = db
      .updateTable("sessions")
      .set({ lastSeenAt: now.toISOString() })
      .where("idHash", "=", idHash)
      .execute();
    // A signed-in read must not wait for the write lock (another process may hold it, ADR 008): the
    // server lets the touch finish in the background; losing one costs nothing, the next comes soon.
    if (waitForWrites) await touch;
    else void touch.catch(() => {});
  }
  return toPublicUser(row);
}

export async function deleteSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom("sessions").where("idHash", "=", hashToken(token)).execute();
}

/** Drops sessions past either expiry (called periodically; lookups also drop the ones they meet). */
export async function pruneSessions(
  db: Kysely<Database>,
  policy: SessionPolicy,
  now = new Date(),
): Promise<void> {
  await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expiresAt", "<=", now.toISOString()),
        eb("lastSeenAt", "<=", new Date(now.getTime() - policy.idleMs).toISOString()),
      ]),
    )
    .execute();
}
