import { hash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";

// Visitor ids without cookies (ADR 014): a hash of a random salt of the UTC day, the client address,
// the User-Agent and the host. The salt lives in the database so every instance hashes alike, and is
// deleted 48 hours after it was made: from then on nobody, us included, can recompute or link an id.

/** A salt is deleted this long after it was made (the day it salts plus a margin for late writes). */
export const SALT_LIFETIME_MS = 48 * 3_600_000;
/** Hex characters kept of the SHA-256: 128 bits, plenty to tell a day's visitors apart. */
export const VISITOR_ID_LENGTH = 32;
/** The client address is cut to this before hashing (an IPv6 address with a zone fits). */
const MAX_ADDRESS_LENGTH = 100;

/** The UTC day of an ISO timestamp or a Date, YYYY-MM-DD. */
export function utcDay(at: Date | string): string {
  return (typeof at === "string" ? at : at.toISOString()).slice(0, 10);
}

/** What identifies a visitor for one day; never stored or logged, only hashed. */
export type VisitorIdentity = { clientAddress: string; userAgent: string; host: string };

export function visitorId(salt: string, identity: VisitorIdentity): string {
  // One-shot hash(): about half the cost of createHash() for a string this small.
  return hash(
    "sha256",
    `${salt}\n${identity.clientAddress.slice(0, MAX_ADDRESS_LENGTH)}\n${identity.userAgent}\n${identity.host.toLowerCase()}`,
  ).slice(0, VISITOR_ID_LENGTH);
}

export type DailySalts = {
  /** The day's salt from memory, or undefined when it has not been loaded yet. */
  cached(day: string): string | undefined;
  /** The day's salt: from memory, else from the database, made there first by whichever instance asks first. */
  get(day: string): Promise<string>;
  /** Deletes salts made more than 48 hours ago, and forgets them here. */
  prune(): Promise<void>;
};

export function createDailySalts(db: Kysely<Database>, now: () => Date = () => new Date()): DailySalts {
  const salts = new Map<string, string>();
  const loading = new Map<string, Promise<string>>();

  async function load(day: string): Promise<string> {
    const createdAt = now().toISOString();
    // Insert-if-absent, then read back: when several instances race, they all end up with the row
    // that won, whichever that was.
    await db
      .insertInto("analyticsSalts")
      .values({ day, salt: randomBytes(32).toString("hex"), createdAt })
      .onConflict((conflict) => conflict.column("day").doNothing())
      .execute();
    const row = await db
      .selectFrom("analyticsSalts")
      .select("salt")
      .where("day", "=", day)
      .executeTakeFirstOrThrow();
    // A new day: drop what has expired (here and in the database), so nothing outlives 48 hours.
    await prune();
    salts.set(day, row.salt);
    return row.salt;
  }

  async function prune(): Promise<void> {
    const cutoff = new Date(now().getTime() - SALT_LIFETIME_MS);
    await db.deleteFrom("analyticsSalts").where("createdAt", "<", cutoff.toISOString()).execute();
    // A day whose salt may be gone from the database: two days back and older.
    const oldestKept = utcDay(new Date(now().getTime() - 86_400_000));
    for (const day of salts.keys()) if (day < oldestKept) salts.delete(day);
  }

  return {
    cached: (day) => salts.get(day),
    get(day) {
      const known = salts.get(day);
      if (known !== undefined) return Promise.resolve(known);
      let pending = loading.get(day);
      if (!pending) {
        pending = load(day).finally(() => loading.delete(day));
        loading.set(day, pending);
      }
      return pending;
    },
    prune,
  };
}
