import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

export type RateLimitOptions = { limit: number; windowMs: number };
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window counters kept in the database, so every app instance on one PostgreSQL shares them.
 * One upsert per hit: atomic on both databases, no read-modify-write race.
 */
export function createRateLimiter(db: Kysely<Database>, { limit, windowMs }: RateLimitOptions) {
  return {
    /** Counts one hit; pass a transaction to count it together with the work it guards. */
    async hit(
      key: string,
      now = Date.now(),
      executor: Kysely<Database> | Transaction<Database> = db,
    ): Promise<RateLimitDecision> {
      if (limit <= 0) return { allowed: true };
      const windowId = Math.floor(now / windowMs);
      // One atomic upsert (hand-written: it runs on every submission, see insertLead).
      const { rows } = await sql<{ hits: number }>`
        insert into rate_limits (key, window_id, hits) values (${key}, ${windowId}, 1)
        on conflict (key) do update set
          hits = case when rate_limits.window_id = excluded.window_id then rate_limits.hits + 1 else 1 end,
          window_id = excluded.window_id
        returning hits`.execute(executor);
      const row = { hits: rows[0]?.hits ?? Number.POSITIVE_INFINITY };
      if (Number(row.hits) <= limit) return { allowed: true };
      const windowEnds = (windowId + 1) * windowMs;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now) / 1000)) };
    },
    /** Drops counters of finished windows (called periodically). */
    async prune(now = Date.now()): Promise<void> {
      await db
        .deleteFrom("rateLimits")
        .where("windowId", "<", Math.floor(now / windowMs))
        .execute();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
