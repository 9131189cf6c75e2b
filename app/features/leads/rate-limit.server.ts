import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";

export type RateLimitOptions = { limit: number; windowMs: number };
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window counters kept in the database, so every app instance on one PostgreSQL shares them.
 * One upsert per hit: atomic on both databases, no read-modify-write race.
 */
export function createRateLimiter(db: Kysely<Database>, { limit, windowMs }: RateLimitOptions) {
  return {
    async hit(key: string, now = Date.now()): Promise<RateLimitDecision> {
      if (limit <= 0) return { allowed: true };
      const windowId = Math.floor(now / windowMs);
      const row = await db
        .insertInto("rateLimits")
        .values({ key, windowId, hits: 1 })
        .onConflict((conflict) =>
          conflict.column("key").doUpdateSet({
            hits: sql`case when rate_limits.window_id = excluded.window_id then rate_limits.hits + 1 else 1 end`,
            windowId: sql`excluded.window_id`,
          }),
        )
        .returning("hits")
        .executeTakeFirstOrThrow();
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
