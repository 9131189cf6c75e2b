import { createHmac } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { type Kysely, sql, type Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { DEVICE_TRUST_MS } from "./trusted-device.server.ts";
import { usernameKey } from "./users.server.ts";

/**
 * Failed verifications allowed (issue 9 point 3, issue 22 point 1, ADR 005 "Sign-in throttle").
 * A client that is no trusted device: per 15 minutes, 5 for one account from one address, 20 from
 * one address, 100 for the account from anywhere, so a botnet gets no more than 100 guesses. A
 * browser that has signed in to the account before (a device cookie) is judged on its own counter
 * only: 5 failures in all (none forgotten until it signs in again), then it counts as untrusted. So
 * strangers filling the account's counter never refuse its owner's browser.
 */
export const LOGIN_LIMITS = { userAddress: 5, address: 20, user: 100, device: 5 } as const;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export type LoginLimits = { userAddress: number; address: number; user: number; device?: number };

export type ThrottleDecision =
  /** `trusted`: judged on the device's own counter (its cookie was valid and not spent). */
  | { allowed: true; reservation: Reservation; trusted: boolean }
  | { allowed: false; retryAfterSeconds: number };

/** One attempt that has been counted in advance; say how it ended. */
export type Reservation = {
  /** The password was wrong: the attempt stays counted. */
  failed(): void;
  /**
   * The sign-in succeeded: the counters of this user here (or of this device) start afresh; the
   * address and the account get this attempt back, their other failures stay (the ceiling holds).
   */
  succeeded(): Promise<void>;
  /** Nothing was verified (the database failed, a right password awaits its code): given back. */
  release(): Promise<void>;
  /**
   * The hashing queue was full: nothing was verified, but the refusal counts against the address
   * that sent it (issue 32 point 2), so a flood of busy answers uses up its addresses' allowance.
   * The account's counters get the attempt back; a trusted device's is given back (see busy()).
   */
  busy(): Promise<void>;
};

/**
 * An address as the throttle counts it: an IPv6 address by its /64 (one subscriber usually holds a
 * whole /64, so counting single addresses would give them billions of attempts), IPv4 and
 * IPv4-mapped IPv6 addresses as they are.
 */
export function addressBucket(address: string): string {
  const plain = address.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(plain)) return plain;
  const [head = "", tail] = plain.toLowerCase().split("::");
  const groups = (text: string | undefined) => (text ? text.split(":") : []);
  // An embedded IPv4 tail (::1.2.3.4) only ever sits in the last 32 bits, past the /64.
  const left = groups(head);
  const right = groups(tail);
  const full =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group || "0", 16).toString(16))
    .join(":")}::/64`;
}

type Counter = { key: string; limit: number; windowMs: number };

/**
 * The sign-in throttle, kept in the database so it holds across app instances. `reserve()` counts
 * the attempt on all three counters BEFORE the password is checked, in one transaction that refuses
 * (and changes nothing) when any counter is full: parallel requests cannot all pass a check made
 * before any of them is counted.
 */
export function createLoginThrottle({
  db,
  secret,
  limits = LOGIN_LIMITS,
  windowMs = LOGIN_WINDOW_MS,
}: {
  db: Kysely<Database>;
  secret: string;
  limits?: LoginLimits;
  windowMs?: number;
}) {
  const hmac = (text: string) => createHmac("sha256", secret).update(text).digest("base64url").slice(0, 32);

  const countersFor = (username: string, address: string) => {
    const user = usernameKey(username);
    const bucket = addressBucket(address);
    // Always the same order: concurrent transactions lock the rows in one order and cannot deadlock.
    return {
      user: { key: hmac(`user:${user}`), limit: limits.user, windowMs },
      address: { key: hmac(`addr:${bucket}`), limit: limits.address, windowMs },
      userAddress: { key: hmac(`useraddr:${user}|${bucket}`), limit: limits.userAddress, windowMs },
    } satisfies Record<string, Counter>;
  };

  /** Counts one attempt unless the counter is full; the new count, or undefined when full. */
  async function take(
    trx: Kysely<Database> | Transaction<Database>,
    { key, limit, windowMs }: Counter,
    now: number,
  ) {
    const ends = now + windowMs;
    // One statement: insert, or add one within the window, or start a new window; the WHERE makes a
    // full counter return no row. PostgreSQL locks the row for the rest of the transaction.
    const { rows } = await sql<{ failures: number }>`
      insert into login_attempts (key, failures, window_ends_at) values (${key}, 1, ${ends})
      on conflict (key) do update set
        failures = case when login_attempts.window_ends_at <= ${now} then 1 else login_attempts.failures + 1 end,
        window_ends_at = case when login_attempts.window_ends_at <= ${now} then ${ends} else login_attempts.window_ends_at end
      where login_attempts.window_ends_at <= ${now} or login_attempts.failures < ${limit}
      returning failures`.execute(trx);
    return rows[0];
  }

  class Full extends Error {
    readonly retryAfterSeconds: number;
    constructor(retryAfterSeconds: number) {
      super("login throttle counter full");
      this.retryAfterSeconds = retryAfterSeconds;
    }
  }

  // One row per statement (each its own transaction): a statement locking several rows would take
  // them in the scan's order, not reserve()'s, and could deadlock with a reservation on PostgreSQL.
  async function giveBack(keys: string[]): Promise<void> {
    for (const key of keys) {
      await db
        .updateTable("loginAttempts")
        .set((eb) => ({ failures: eb("failures", "-", 1) }))
        .where("key", "=", key)
        .where("failures", ">", 0)
        .execute();
    }
  }

  async function forget(keys: string[]): Promise<void> {
    for (const key of keys) await db.deleteFrom("loginAttempts").where("key", "=", key).execute();
  }

  /**
   * A reservation that settles once; `succeeded` forgets `forgotten` and gives back `returned`,
   * `busy` gives back all it took but `kept`.
   */
  function granted(
    taken: Counter[],
    forgotten: Counter[],
    returned: Counter[],
    trusted: boolean,
    kept: Counter[] = [],
  ) {
    let settled = false;
    const settle = () => {
      if (settled) throw new Error("a login reservation is settled once");
      settled = true;
    };
    const keys = (counters: Counter[]) => counters.map((counter) => counter.key);
    return {
      allowed: true as const,
      trusted,
      reservation: {
        failed: settle,
        async succeeded() {
          settle();
          await forget(keys(forgotten));
          await giveBack(keys(returned));
        },
        async release() {
          settle();
          await giveBack(keys(taken));
        },
        async busy() {
          settle();
          await giveBack(keys(taken.filter((counter) => !kept.includes(counter))));
        },
      },
    };
  }

  return {
    /**
     * Counts one attempt for `username` from `address` before anything is verified. `deviceId`: the
     * id of a device cookie already checked for this username (trusted-device.server.ts); while its
     * own counter has room, the attempt is counted there alone and nothing else can refuse it.
     */
    async reserve(
      username: string,
      address: string,
      now = Date.now(),
      deviceId?: string,
    ): Promise<ThrottleDecision> {
      if (deviceId) {
        const device: Counter = {
          key: hmac(`device:${deviceId}`),
          limit: limits.device ?? LOGIN_LIMITS.device,
          // NOTE: as long as the cookie can live: a stolen cookie is worth five guesses in all, not
          // five every 15 minutes; only a sign-in (which issues a new cookie) forgets them.
          windowMs: DEVICE_TRUST_MS,
        };
        // One statement, atomic by itself: no transaction round trips on the owner's path.
        const taken = await take(db, device, now);
        if (taken) return granted([device], [device], [], true);
        // Spent: this browser is judged like any other client from here on.
      }
      const counters = countersFor(username, address);
      try {
        await db.transaction().execute(async (trx) => {
          for (const counter of [counters.user, counters.address, counters.userAddress]) {
            if (await take(trx, counter, now)) continue;
            const row = await trx
              .selectFrom("loginAttempts")
              .select("windowEndsAt")
              .where("key", "=", counter.key)
              .executeTakeFirst();
            const ends = Number(row?.windowEndsAt ?? now + windowMs);
            // Throwing rolls back the counters this attempt already took.
            throw new Full(Math.max(1, Math.ceil((ends - now) / 1000)));
          }
        });
      } catch (error) {
        if (error instanceof Full) return { allowed: false, retryAfterSeconds: error.retryAfterSeconds };
        throw error;
      }
      // Failures of this user here are forgotten. The address and the account only get this attempt
      // back: signing in to one's own account between guesses at others does not reset the address
      // limit, and the owner signing in does not hand a botnet a fresh 100 guesses at the account.
      return granted(
        [counters.user, counters.address, counters.userAddress],
        [counters.userAddress],
        [counters.user, counters.address],
        false,
        [counters.address],
      );
    },

    /**
     * The hashing queue refused a sign-in from `address` before anything else was done (issue 32
     * point 2): one attempt counted against that address alone (not the account: the owner's
     * counters are not the flood's to fill). `allowed: false` when the address had none left, which
     * the caller answers like any other full counter (429).
     */
    async countBusy(
      address: string,
      now = Date.now(),
    ): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
      const counter = countersFor("", address).address;
      // One statement, no transaction: a flood's busy answers stay as cheap as they can be.
      if (await take(db, counter, now)) return { allowed: true };
      const row = await db
        .selectFrom("loginAttempts")
        .select("windowEndsAt")
        .where("key", "=", counter.key)
        .executeTakeFirst();
      const ends = Number(row?.windowEndsAt ?? now + windowMs);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((ends - now) / 1000)) };
    },

    /** Drops counters whose window has ended (called periodically). */
    async prune(now = Date.now()): Promise<void> {
      await pruneLoginAttempts(db, now);
    },
  };
}

/** Sign-in counters whose window has ended (the purge's dry run). */
export async function countExpiredLoginAttempts(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const row = await db
    .selectFrom("loginAttempts")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("windowEndsAt", "<=", now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Drops sign-in counters whose window has ended; how many went. */
export async function pruneLoginAttempts(db: Kysely<Database>, now = Date.now()): Promise<number> {
  if (isPostgres(db)) {
    // Rows a reservation holds right now are skipped (it is renewing them): a DELETE waiting on
    // them while holding others could deadlock with that reservation.
    const result = await sql`delete from login_attempts where key in (
      select key from login_attempts where window_ends_at <= ${now} for update skip locked)`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  }
  const result = await db.deleteFrom("loginAttempts").where("windowEndsAt", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
