import { createHash, randomBytes } from "node:crypto";
import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { maskAddress } from "#app/lib/mask-address.ts";
import { describeBrowser } from "./session-device.ts";
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

/** Where a sign-in came from, as the request says: kept only as a browser name and a masked network. */
export type SessionDevice = { userAgent?: string | null; clientAddress?: string | null };

export async function createSession(
  db: Kysely<Database>,
  userId: number,
  policy: SessionPolicy,
  now = new Date(),
  device: SessionDevice = {},
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
      handle: randomBytes(12).toString("hex"),
      browser: describeBrowser(device.userAgent),
      address: maskAddress(device.clientAddress),
    })
    .execute();
  return { token, expiresAt };
}

/** A session as its owner sees it in the sessions list. */
export type SessionSummary = {
  id: string;
  browser: string;
  address: string;
  createdAt: string;
  lastSeenAt: string;
  /** The session of the request asking. */
  current: boolean;
};

/** The user's live sessions, the most recently used first. */
export async function listSessions(
  db: Kysely<Database>,
  userId: number,
  policy: SessionPolicy,
  currentToken: string | undefined,
  now = new Date(),
): Promise<SessionSummary[]> {
  const currentHash = currentToken ? hashToken(currentToken) : undefined;
  const rows = await db
    .selectFrom("sessions")
    .select(["idHash", "handle", "browser", "address", "createdAt", "lastSeenAt"])
    .where("userId", "=", userId)
    .where("expiresAt", ">", now.toISOString())
    .where("lastSeenAt", ">", new Date(now.getTime() - policy.idleMs).toISOString())
    .orderBy("lastSeenAt", "desc")
    .orderBy("createdAt", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.handle,
    browser: row.browser ?? "Unknown browser",
    address: row.address ?? "unknown",
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    current: row.idHash === currentHash,
  }));
}

/** A handle as sessions get them: 24 hex digits. Anything else names no session. */
export const isSessionHandle = (value: unknown): value is string =>
  typeof value === "string" && /^[0-9a-f]{24}$/.test(value);

/** Ends one of the user's own sessions by its handle; false when it names none of theirs. */
export async function endSessionByHandle(
  db: Kysely<Database>,
  userId: number,
  handle: string,
): Promise<boolean> {
  if (!isSessionHandle(handle)) return false;
  const result = await db
    .deleteFrom("sessions")
    .where("userId", "=", userId)
    .where("handle", "=", handle)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Ends every session of the user but the one of `keepToken` (when given), and any sign-in of theirs
 * waiting for its second step; how many sessions ended.
 */
export async function endUserSessions(
  db: Kysely<Database>,
  userId: number,
  keepToken?: string,
): Promise<number> {
  let query = db.deleteFrom("sessions").where("userId", "=", userId);
  if (keepToken) query = query.where("idHash", "<>", hashToken(keepToken));
  const result = await query.executeTakeFirst();
  // A sign-in half-way through its second step ends too: it would otherwise open a session anew.
  await db.deleteFrom("pendingLogins").where("userId", "=", userId).execute();
  return Number(result.numDeletedRows);
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
    .select(["users.id", "users.username", "users.role", "sessions.lastSeenAt", "sessions.expiresAt"])
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

/** Past either expiry: the sessions pruneSessions drops. */
function isExpired(policy: SessionPolicy, now: Date) {
  return (eb: ExpressionBuilder<Database, "sessions">) =>
    eb.or([
      eb("expiresAt", "<=", now.toISOString()),
      eb("lastSeenAt", "<=", new Date(now.getTime() - policy.idleMs).toISOString()),
    ]);
}

/** How many sessions have expired and wait to be pruned (the purge's dry run). */
export async function countExpiredSessions(
  db: Kysely<Database>,
  policy: SessionPolicy,
  now = new Date(),
): Promise<number> {
  const row = await db
    .selectFrom("sessions")
    .select((eb) => eb.fn.countAll().as("count"))
    .where(isExpired(policy, now))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Drops sessions past either expiry (called periodically; lookups also drop the ones they meet).
 * How many went.
 */
export async function pruneSessions(
  db: Kysely<Database>,
  policy: SessionPolicy,
  now = new Date(),
): Promise<number> {
  const result = await db.deleteFrom("sessions").where(isExpired(policy, now)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
