import { availableParallelism } from "node:os";

/** What the login page, /admin/simple and POST /api/login say when the hashing queue is full. */
export const HASHING_BUSY_MESSAGE =
  "The server is busy checking other sign-ins. Please try again in a few seconds.";
export const HASHING_BUSY_RETRY_AFTER_SECONDS = 2;

export type HashingQueueOptions = { maxRunning?: number; maxWaiting?: number };

/**
 * Bounds the password hashes computed at once (issue 9 point 2). scrypt already runs off the event
 * loop, but a burst of sign-ins would still take every core (and libuv's whole thread pool, which
 * file and DNS work share) away from all other requests. One core stays free for them; a few sign-ins
 * may wait their turn, and beyond that the answer is "busy, try again" at once rather than a queue
 * that grows with the attack.
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
}: HashingQueueOptions = {}) {
  let running = 0;
  const waiting: (() => void)[] = [];

  const next = () => {
    running--;
    const start = waiting.shift();
    if (start) {
      running++;
      start();
    }
  };

  return {
    /** Runs `task` when a slot is free; `{ busy: true }` at once when too many are already waiting. */
    async run<T>(task: () => Promise<T>): Promise<{ busy: true } | { busy: false; value: T }> {
      if (running >= maxRunning) {
        if (waiting.length >= maxWaiting) return { busy: true };
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      try {
        return { busy: false, value: await task() };
      } finally {
        next();
      }
    },
    /** Whether run() would take a task now; lets a caller refuse before doing any other work. */
    hasRoom: () => running < maxRunning || waiting.length < maxWaiting,
    /** For tests and diagnostics. */
    stats: () => ({ running, waiting: waiting.length }),
  };
}

export type HashingQueue = ReturnType<typeof createHashingQueue>;
