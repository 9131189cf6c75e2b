// The search answers as staff type, several requests a second; a script with a stolen session must
// not page through every person with it. A per-person budget, kept in memory: a keystroke's request
// should not write a database row (the shared limiter's sliding window does), and a limit per app
// instance is enough to stop bulk reading.

export const SEARCHES_PER_MINUTE = 120;
const WINDOW_MS = 60_000;
/** Never more than this many people tracked; stale ones are dropped first. */
const MAX_TRACKED = 10_000;

export function createSearchRate(limit = SEARCHES_PER_MINUTE, windowMs = WINDOW_MS) {
  const windows = new Map<number, { start: number; count: number }>();
  return {
    /** Counts one search by `userId`; the seconds to wait when over the limit, else 0. */
    hit(userId: number, now = Date.now()): number {
      let window = windows.get(userId);
      if (!window || now - window.start >= windowMs) {
        if (!window && windows.size >= MAX_TRACKED)
          for (const [key, value] of windows) if (now - value.start >= windowMs) windows.delete(key);
        if (windows.size >= MAX_TRACKED) windows.delete(windows.keys().next().value as number);
        window = { start: now, count: 0 };
        windows.set(userId, window);
      }
      if (window.count >= limit) return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
      window.count += 1;
      return 0;
    },
  };
}
