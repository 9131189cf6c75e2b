import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

/** What a client past a limit is told (forms, the lead API, bookings and slot queries alike). */
export function tooManyRequestsMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export type RateLimitOptions = { limit: number; windowMs: number };
export type RateLimitDecision =
  | {
      allowed: true /** Accepted hits in the window, this one included (0 with the limit off). */;
      count: number;
    }
  | { allowed: false; retryAfterSeconds: number; count: number };

/** Far more than a request waits for a key's row (the database wait is 5 s), far less than a window. */
const CLOCK_SLACK_MS = 60_000;

/**
 * Sliding-window limits kept in the database, so every app instance on one PostgreSQL shares them.
 * Each key's row holds the times of its accepted hits in the last window (at most `limit` of them):
 * "10 per 10 minutes" holds over any 10 minutes, where the fixed windows before let 20 through in
 * 5.5 minutes across a window boundary. A refused hit is not recorded, so a client that stops
 * sending gets its next slot exactly when its oldest hit leaves the window.
 *
 * Check and count are one step: the first statement upserts the key's row, which locks it until the
 * transaction ends (PostgreSQL; SQLite runs one writing transaction at a time anyway), so two
 * requests for one key cannot both take the last slot. Pass the transaction of the work it guards.
 */
export function createRateLimiter(db: Kysely<Database>, { limit, windowMs }: RateLimitOptions) {
  /** A key's first hit in a window as one statement: returns its row's hits when it created the row. */
  const firstHit = (key: string, now: number) =>
    sql<{
      hits: string;
    }>`insert into rate_limits (key, hits, expires_at) values (${key}, ${`[${now}]`}, ${now + windowMs})
        on conflict (key) do nothing
        returning hits`;

  const limiter = {
    limit,
    async hit(
      key: string,
      now = Date.now(),
      executor: Kysely<Database> | Transaction<Database> = db,
    ): Promise<RateLimitDecision> {
      if (limit <= 0) return { allowed: true, count: 0 };
      // A key's first hit in a window (most submissions: one visitor, one lead) is one statement: the
      // row is created holding it. That insert holds the key too (a concurrent first hit waits for it on
      // PostgreSQL, then finds the row), so the check cannot be raced; a key with a row takes the path below.
      const first = await firstHit(key, now).execute(executor);
      return limiter.hitAfterFirst(key, now, executor, first.rows.length > 0);
    },
    /**
     * `hit`'s first statement, for a caller that runs it inside one of its own (a data-modifying `with`
     * on PostgreSQL: one round trip less per lead, issue 32 point 17); null with the limit off. Pass
     * whether it returned a row to `hitAfterFirst`, in the same transaction.
     */
    firstHitStatement(key: string, now: number) {
      return limit <= 0 ? null : firstHit(key, now);
    },
    /** The rest of `hit` after its first statement ran: `created` when that statement returned a row. */
    async hitAfterFirst(
      key: string,
      now: number,
      executor: Kysely<Database> | Transaction<Database>,
      created: boolean,
    ): Promise<RateLimitDecision> {
      if (limit <= 0) return { allowed: true, count: 0 };
      if (created) return { allowed: true, count: 1 };
      // Hand-written: it runs on every lead submission (see insertLead).
      const { rows } = await sql<{ hits: string }>`
        insert into rate_limits (key, hits, expires_at) values (${key}, '[]', ${now + windowMs})
        on conflict (key) do update set hits = rate_limits.hits
        returning hits`.execute(executor);
      // Hits stamped after `now` count too. `now` is taken before the row lock is ours, so a request
      // that waited for it (behind another instance, or this one) can be older than hits already
      // stored; leaving those out let them be overwritten, and two instances let twice the limit in.
      // A hit stamped further ahead than any wait for the lock explains comes from a clock running
      // ahead (another instance's): it counts as made now, and is written back so, or it would hold
      // the key for the clock's lead on top of the window (hours of refusals for a clock hours fast).
      const stored = parseHits(rows[0]?.hits);
      const skewed = stored.some((at) => at > now + CLOCK_SLACK_MS);
      const recent = stored
        .map((at) => (at > now + CLOCK_SLACK_MS ? now : at))
        .filter((at) => at > now - windowMs)
        .sort((a, b) => a - b);
      const store = (hits: number[]) =>
        sql`update rate_limits set hits = ${JSON.stringify(hits)},
          expires_at = ${(hits[hits.length - 1] ?? now) + windowMs} where key = ${key}`.execute(executor);
      if (recent.length >= limit) {
        if (skewed) await store(recent);
        const oldest = recent[recent.length - limit] ?? now;
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
          count: recent.length,
        };
      }
      recent.push(now);
      recent.sort((a, b) => a - b);
      await store(recent);
      return { allowed: true, count: recent.length };
    },
    /** Drops keys whose every hit has left the window (called periodically; any limiter prunes all). */
    async prune(now = Date.now()): Promise<void> {
      await pruneRateLimits(db, now);
    },
  };
  return limiter;
}

/** Rate-limit rows whose every hit has left its window (the purge's dry run). */
export async function countExpiredRateLimits(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const row = await db
    .selectFrom("rateLimits")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("expiresAt", "<", now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Drops rate-limit rows whose every hit has left its window; how many went. */
export async function pruneRateLimits(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom("rateLimits").where("expiresAt", "<", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

function parseHits(raw: string | undefined): number[] {
  try {
    const value: unknown = JSON.parse(raw ?? "[]");
    return Array.isArray(value) ? value.filter((at): at is number => typeof at === "number") : [];
  } catch {
    return [];
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
