import { describe, expect, it } from "vitest";
import { createRefreshingCache } from "./refreshing-cache.ts";

/** A computation the test finishes by hand, numbered in the order they started. */
function manualComputations() {
  const started: Array<{ at: number; finish(): void; fail(): void }> = [];
  const compute = (at: number) =>
    new Promise<string>((resolve, reject) => {
      const n = started.length + 1;
      started.push({ at, finish: () => resolve(`value ${n}`), fail: () => reject(new Error(`failed ${n}`)) });
    });
  return { started, compute };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a refreshing cache", () => {
  it("computes once for callers arriving together, then serves the value until it is due", async () => {
    const { started, compute } = manualComputations();
    const cache = createRefreshingCache(compute, { ttlMs: 5000, refreshMs: 3500 });
    const first = cache.get(0);
    const second = cache.get(10);
    expect(started).toHaveLength(1);
    started[0]?.finish();
    expect(await first).toBe("value 1");
    expect(await second).toBe("value 1");
    expect(await cache.get(3000)).toBe("value 1");
    expect(started).toHaveLength(1);
  });

  it("after refreshMs answers at once with the value it has and computes the next one behind it", async () => {
    const { started, compute } = manualComputations();
    const cache = createRefreshingCache(compute, { ttlMs: 5000, refreshMs: 3500 });
    const first = cache.get(0);
    started[0]?.finish();
    await first;
    expect(await cache.get(4000)).toBe("value 1");
    expect(await cache.get(4100)).toBe("value 1");
    // One refresh only, however many callers come while it runs.
    expect(started).toHaveLength(2);
    started[1]?.finish();
    await settle();
    expect(await cache.get(4200)).toBe("value 2");
  });

  it("never answers with a value older than ttlMs: past it, callers wait for the fresh one", async () => {
    const { started, compute } = manualComputations();
    const cache = createRefreshingCache(compute, { ttlMs: 5000, refreshMs: 3500 });
    const first = cache.get(0);
    started[0]?.finish();
    await first;
    let answered: string | undefined;
    const late = cache.get(6000).then((value) => {
      answered = value;
      return value;
    });
    await settle();
    expect(answered).toBeUndefined();
    started[1]?.finish();
    expect(await late).toBe("value 2");
  });

  it("after invalidate() computes afresh and never shows a result started before it", async () => {
    const { started, compute } = manualComputations();
    const cache = createRefreshingCache(compute, { ttlMs: 5000, refreshMs: 3500 });
    const first = cache.get(0);
    started[0]?.finish();
    await first;
    // A refresh is running when a staff change invalidates the value.
    expect(await cache.get(4000)).toBe("value 1");
    cache.invalidate();
    const next = cache.get(4001);
    expect(started).toHaveLength(3);
    started[1]?.finish();
    await settle();
    started[2]?.finish();
    expect(await next).toBe("value 3");
    expect(await cache.get(4002)).toBe("value 3");
  });

  it("does not keep a failed computation: the next caller tries again", async () => {
    const { started, compute } = manualComputations();
    const cache = createRefreshingCache(compute, { ttlMs: 5000, refreshMs: 3500 });
    const first = cache.get(0);
    started[0]?.fail();
    await expect(first).rejects.toThrow("failed 1");
    const second = cache.get(1);
    expect(started).toHaveLength(2);
    started[1]?.finish();
    expect(await second).toBe("value 2");
  });
});
