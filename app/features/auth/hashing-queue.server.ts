import { availableParallelism } from "node:os";

/** What the login page, /admin/simple and POST /api/login say when the hashing queue is full. */
export const HASHING_BUSY_MESSAGE =
  "The server is busy checking other sign-ins. Please try again in a few seconds.";
export const HASHING_BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * Who a hash is for. "trusted": a browser whose device cookie for the username being signed in was
 * valid and not spent (trusted-device.server.ts, login-throttle.server.ts), or a signed-in session
 * proving it is its owner; "open": everyone else. Decided before the hash, at the cost of an HMAC.
 */
export type HashingLane = "open" | "trusted";

export type HashingQueueOptions = { maxRunning?: number; maxWaiting?: number; maxTrustedWaiting?: number };

/**
 * Bounds the password hashes computed at once (issue 9 point 2). scrypt already runs off the event
 * loop, but a burst of sign-ins would still take every core (and libuv's whole thread pool, which
 * file and DNS work share) away from all other requests. One core stays free for them; a few sign-ins
 * may wait their turn, and beyond that the answer is "busy, try again" at once rather than a queue
 * that grows with the attack.
 *
 * Issue 32 point 2 (ADR 020): a flood of sign-ins keeps the open waiting places full, so the trusted
 * lane has waiting places of its own that open requests cannot take, and a freed slot goes to a
 * trusted request before any open one. A trusted sign-in therefore waits for the hashes already
 * running (at most maxRunning) and the trusted ones ahead of it, never for the flood's queue, and
 * no more hashes run at once than before.
 */
/**
 * One core stays free for other requests, and one of libuv's threads (4 unless UV_THREADPOOL_SIZE
 * says otherwise) for the file, DNS and zlib work that shares the pool with scrypt.
 */
export function defaultMaxHashing(
  cores = availableParallelism(),
  threadPool = Number(process.env.UV_THREADPOOL_SIZE) || 4,
): number {
  return Math.max(1, Math.min(cores - 1, threadPool - 1));
}

export function createHashingQueue({
  maxRunning = defaultMaxHashing(),
  maxWaiting = 16,
  maxTrustedWaiting = 8,
}: HashingQueueOptions = {}) {
  let running = 0;
  const waiting: Record<HashingLane, (() => void)[]> = { open: [], trusted: [] };
  // One trusted hash per account at a time, waiting or running: a staff member replaying their own
  // device cookie in parallel would otherwise fill the trusted lane and, served first, starve every
  // other sign-in. Their second and later requests take the open lane, like the flood's.
  const trustedInFlight = new Map<string, number>();
  const laneFor = (lane: HashingLane, account?: string): HashingLane =>
    lane === "trusted" && account !== undefined && (trustedInFlight.get(account) ?? 0) > 0 ? "open" : lane;
  const limits: Record<HashingLane, number> = { open: maxWaiting, trusted: maxTrustedWaiting };

  const next = () => {
    running--;
    const start = waiting.trusted.shift() ?? waiting.open.shift();
    if (start) {
      running++;
      start();
    }
  };

  return {
    /**
     * Runs `task` when a slot is free (trusted ones first); `{ busy: true }` at once when too many
     * of its lane are already waiting.
     */
    async run<T>(
      task: () => Promise<T>,
      asked: HashingLane = "open",
      /** The account a trusted hash is for (lowercased username): one at a time per account. */
      account?: string,
    ): Promise<{ busy: true } | { busy: false; value: T }> {
      const lane = laneFor(asked, account);
      if (running >= maxRunning && waiting[lane].length >= limits[lane]) return { busy: true };
      const held = lane === "trusted" && account !== undefined;
      if (held) trustedInFlight.set(account, (trustedInFlight.get(account) ?? 0) + 1);
      try {
        if (running >= maxRunning) await new Promise<void>((resolve) => waiting[lane].push(resolve));
        else running++;
        try {
          return { busy: false, value: await task() };
        } finally {
          next();
        }
      } finally {
        if (held) {
          const left = (trustedInFlight.get(account) ?? 1) - 1;
          if (left > 0) trustedInFlight.set(account, left);
          else trustedInFlight.delete(account);
        }
      }
    },
    /** Whether run() would take a task of `lane` now; lets a caller refuse before doing any other work. */
    hasRoom: (asked: HashingLane = "open", account?: string) => {
      const lane = laneFor(asked, account);
      return running < maxRunning || waiting[lane].length < limits[lane];
    },
    /** For tests and diagnostics. */
    stats: () => ({ running, waiting: waiting.open.length, trustedWaiting: waiting.trusted.length }),
  };
}

export type HashingQueue = ReturnType<typeof createHashingQueue>;
