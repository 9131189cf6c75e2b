import { metrics } from "#app/lib/metrics.server.ts";

// How many audits (security audits and performance checks) run at once, and how many may wait
// (issue 9 point 11). Each security audit is a child process of ~50-400 MB and a few seconds of
// CPU: on a small server two at a time is plenty; a few more wait their turn, and beyond that staff
// get a clear "busy, try again" (503 with Retry-After) rather than a server that slows for everyone.

export type AuditSlotsOptions = {
  maxRunning: number;
  maxQueued: number;
  /** A queued audit gives up (busy) after waiting this long for a slot. */
  maxWaitMs: number;
};

/** Seconds a client is told to wait before trying again. */
export const AUDIT_RETRY_AFTER_SECONDS = 30;

export class AuditBusyError extends Error {
  readonly retryAfterSeconds = AUDIT_RETRY_AFTER_SECONDS;
  constructor() {
    super("The audit service is busy: other audits are running and waiting. Please try again in a minute.");
    this.name = "AuditBusyError";
  }
}

/** A refusal to show staff; `retryAfter` (seconds) when the audits are busy (503). */
export type AuditRefusal = {
  ok: false;
  status: number;
  message: string;
  error?: string;
  details?: string;
  retryAfter?: number;
};

/** The audits' one "busy, try again" answer: 503 with Retry-After, whichever audit was refused. */
export function busyRefusal(error: AuditBusyError): AuditRefusal {
  return {
    ok: false,
    status: 503,
    message: error.message,
    error: "Busy",
    details: error.message,
    retryAfter: error.retryAfterSeconds,
  };
}

/**
 * Runs `work` in one of the slots, timed in the audits' duration metric under `kind`. A full queue
 * gives the busy refusal (timed "busy"); a throw is timed "failed" and thrown on; otherwise the
 * caller names the outcome with `done` once it knows it.
 */
export async function runTimedInSlot<T>(
  slots: AuditSlots,
  kind: "security" | "performance" | "lab" | "tls",
  work: () => Promise<T>,
): Promise<{ ok: true; value: T; done(outcome: string): void } | AuditRefusal> {
  const timer = metrics.auditDuration.startTimer({ kind });
  try {
    const value = await slots.run(work);
    return { ok: true, value, done: (outcome) => timer({ outcome }) };
  } catch (error) {
    timer({ outcome: error instanceof AuditBusyError ? "busy" : "failed" });
    if (error instanceof AuditBusyError) return busyRefusal(error);
    throw error;
  }
}

export type AuditSlots = {
  /** Runs `work` when a slot is free; throws AuditBusyError when the queue is full or the wait too long. */
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly running: number;
  readonly queued: number;
};

export function createAuditSlots({ maxRunning, maxQueued, maxWaitMs }: AuditSlotsOptions): AuditSlots {
  let running = 0;
  const waiting: { start: () => void }[] = [];

  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) next.start();
  };

  const acquire = (): Promise<void> => {
    if (running < maxRunning) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= maxQueued) return Promise.reject(new AuditBusyError());
    return new Promise((resolve, reject) => {
      const entry = {
        start: () => {
          clearTimeout(timer);
          running += 1;
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const index = waiting.indexOf(entry);
        if (index !== -1) waiting.splice(index, 1);
        reject(new AuditBusyError());
      }, maxWaitMs);
      waiting.push(entry);
    });
  };

  return {
    async run(work) {
      await acquire();
      try {
        return await work();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
  };
}
