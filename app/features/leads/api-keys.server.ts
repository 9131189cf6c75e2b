import { createHash, randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";

// API keys let an integration (a CRM sync, a partner's form, a script) submit leads through
// POST /api/demo-request: the key's name becomes the lead's source, the time trap and the
// per-address limit do not apply, the key has a limit of its own. Only a SHA-256 of the key is
// stored, so the key is shown once, when it is made; a lost key is revoked and replaced.

export const API_KEY_PREFIX = "cbk_";
/** Enough of the key to tell keys apart in the list, not enough to guess the rest. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;
/** Sources the product uses itself: a key of that name would make leads ambiguous. */
const RESERVED_NAMES = ["form", "api"];

export type ApiKeySummary = {
  id: number;
  name: string;
  keyPrefix: string;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
};

export type ActiveApiKey = { id: number; name: string };

export const ApiKeyNameSchema = z
  .string({ error: "Please give the key a name." })
  .refine(
    (value) => !breaksTextRule(value, "one-line-no-bidi"),
    "The name may not contain control characters.",
  )
  .trim()
  .min(2, "The name must have at least 2 characters.")
  .max(60, "The name must have at most 60 characters.")
  .refine((value) => !RESERVED_NAMES.includes(value.toLowerCase()), {
    message: `"form" and "api" are reserved: choose another name.`,
  });

export class ApiKeyInputError extends Error {}

function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Makes a key; the returned `key` is the only time anyone sees it. */
export async function createApiKey(
  db: Kysely<Database>,
  rawName: unknown,
  actor: { id: number; username: string },
  now = new Date(),
): Promise<ApiKeySummary & { key: string }> {
  const parsed = ApiKeyNameSchema.safeParse(rawName);
  if (!parsed.success) throw new ApiKeyInputError(parsed.error.issues[0]?.message ?? "Invalid name.");
  const name = parsed.data;
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const timestamp = now.toISOString();
  const row = await db.transaction().execute(async (trx) => {
    const clash = await trx
      .selectFrom("apiKeys")
      .select("id")
      .where("revokedAt", "is", null)
      .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
      .executeTakeFirst();
    if (clash) throw new ApiKeyInputError(`An active key named "${name}" exists already.`);
    return trx
      .insertInto("apiKeys")
      .values({
        name,
        keyPrefix: key.slice(0, SHOWN_PREFIX_LENGTH),
        keyHash: hashKey(key),
        createdByUserId: actor.id,
        createdByUsername: actor.username,
        createdAt: timestamp,
        lastUsedAt: null,
        revokedAt: null,
        revokedByUsername: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  });
  return {
    id: Number(row.id),
    name,
    keyPrefix: key.slice(0, SHOWN_PREFIX_LENGTH),
    createdBy: actor.username,
    createdAt: timestamp,
    lastUsedAt: null,
    revokedAt: null,
    revokedBy: null,
    key,
  };
}

/** Every key, active first, newest first. */
export async function listApiKeys(db: Kysely<Database>): Promise<ApiKeySummary[]> {
  const rows = await db
    .selectFrom("apiKeys")
    .select([
      "id",
      "name",
      "keyPrefix",
      "createdByUsername",
      "createdAt",
      "lastUsedAt",
      "revokedAt",
      "revokedByUsername",
    ])
    .orderBy((eb) => eb.case().when("revokedAt", "is", null).then(0).else(1).end())
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    keyPrefix: row.keyPrefix,
    createdBy: row.createdByUsername,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    revokedBy: row.revokedByUsername,
  }));
}

/** Revokes a key at once (every instance: the check reads the database). False when unknown. */
export async function revokeApiKey(
  db: Kysely<Database>,
  id: number,
  actor: { username: string },
  now = new Date(),
): Promise<boolean> {
  const existing = await db
    .selectFrom("apiKeys")
    .select(["id", "revokedAt"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!existing) return false;
  if (existing.revokedAt) return true;
  await db
    .updateTable("apiKeys")
    .set({ revokedAt: now.toISOString(), revokedByUsername: actor.username })
    .where("id", "=", id)
    .where("revokedAt", "is", null)
    .execute();
  return true;
}

/** The active key matching a presented one, or null (unknown, malformed or revoked alike). */
export async function findActiveApiKey(
  db: Kysely<Database>,
  presented: string,
): Promise<ActiveApiKey | null> {
  if (!presented.startsWith(API_KEY_PREFIX) || presented.length > 200) return null;
  const row = await db
    .selectFrom("apiKeys")
    .select(["id", "name"])
    .where("keyHash", "=", hashKey(presented))
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  return row ? { id: Number(row.id), name: row.name } : null;
}

/** Records that the key was used, in the transaction that stores its lead. */
export async function touchApiKey(trx: Transaction<Database>, id: number, now: Date): Promise<void> {
  await trx.updateTable("apiKeys").set({ lastUsedAt: now.toISOString() }).where("id", "=", id).execute();
}

/** The key in `Authorization: Bearer <key>`: undefined when there is no such header, null when malformed. */
export function bearerToken(header: string | null): string | null | undefined {
  if (header === null) return undefined;
  const match = /^Bearer[ ]+([A-Za-z0-9_\-.~+/]+=*)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
