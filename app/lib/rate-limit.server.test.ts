import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { createRateLimiter } from "./rate-limit.server.ts";

// The limiter's row is shared by every instance (ADR 016); their clocks are not quite one clock.
describeEachDatabase("rate limiter", (use) => {
  const WINDOW = 600_000;
  const NOW = Date.parse("2026-11-26T12:00:00.000Z");

  it("holds a key for one window at most when another instance's clock runs hours ahead", async () => {
    const limiter = createRateLimiter(use().db, { limit: 3, windowMs: WINDOW });
    const ahead = NOW + 6 * 3_600_000;
    for (let i = 0; i < 3; i++) expect((await limiter.hit("addr:203.0.113.9", ahead + i)).allowed).toBe(true);
    // This instance counts them (the limit holds) but not for six hours more.
    const refused = await limiter.hit("addr:203.0.113.9", NOW);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: WINDOW / 1000, count: 3 });
    expect(await limiter.hit("addr:203.0.113.9", NOW + WINDOW + 1)).toEqual({ allowed: true, count: 1 });
  });

  it("still counts hits a few seconds ahead (another request took the row first) for their whole window", async () => {
    const limiter = createRateLimiter(use().db, { limit: 2, windowMs: WINDOW });
    expect((await limiter.hit("addr:198.51.100.7", NOW + 2_000)).allowed).toBe(true);
    expect((await limiter.hit("addr:198.51.100.7", NOW + 1_000)).allowed).toBe(true);
    const refused = await limiter.hit("addr:198.51.100.7", NOW);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: WINDOW / 1000 + 1, count: 2 });
    expect((await limiter.hit("addr:198.51.100.7", NOW + WINDOW + 1)).allowed).toBe(false);
    expect((await limiter.hit("addr:198.51.100.7", NOW + WINDOW + 1_001)).allowed).toBe(true);
  });
});
