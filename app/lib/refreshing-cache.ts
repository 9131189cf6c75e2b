/**
 * One value, computed at most once per `ttlMs`, never shown older than that. From `refreshMs` on, a
 * caller gets the cached value at once and a fresh computation starts behind it, so under steady use
 * no caller waits; past `ttlMs` a caller waits for the fresh one. `invalidate()` drops the value and
 * any computation in flight (its result arrives too late to be shown). A failed computation is not
 * kept: the next caller tries again.
 */
export function createRefreshingCache<T>(
  compute: (now: number) => Promise<T>,
  { ttlMs, refreshMs }: { ttlMs: number; refreshMs: number },
) {
  type Entry = { at: number; generation: number; value: Promise<T> };
  let cached: Entry | undefined;
  let refreshing: Entry | undefined;
  let generation = 0;

  const start = (now: number): Entry => {
    const entry: Entry = { at: now, generation, value: compute(now) };
    entry.value.then(
      () => {
        if (refreshing === entry) refreshing = undefined;
        if (entry.generation === generation && (!cached || cached.at <= entry.at)) cached = entry;
      },
      () => {
        if (refreshing === entry) refreshing = undefined;
      },
    );
    return entry;
  };

  return {
    get(now = Date.now()): Promise<T> {
      const age = cached ? now - cached.at : Number.POSITIVE_INFINITY;
      if (cached && age < refreshMs) return cached.value;
      if (!refreshing) refreshing = start(now);
      if (cached && age < ttlMs) return cached.value;
      return refreshing.value;
    },
    invalidate(): void {
      generation++;
      cached = undefined;
      refreshing = undefined;
    },
  };
}
