import type { Kysely } from "kysely";
import type { DialectName } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { metrics } from "../metrics.server.ts";
import { withDeadline } from "../with-deadline.ts";

/** A claimed outbox row, as a sender sees it. `attempts` counts this one. */
export type OutboxMessage = { id: number; kind: string; payload: unknown; attempts: number };

export type OutboxSend = (message: OutboxMessage) => Promise<void>;

/** One line per event; the worker never puts personal data into these messages. */
export type OutboxLogger = { error(message: string): void };

/** Thrown by a sender when retrying cannot help (the lead was deleted, an unknown kind): fail at once. */
export class PermanentSendError extends Error {}

export type OutboxProcessorOptions = {
  db: Kysely<Database>;
  dialect: DialectName;
  send: OutboxSend;
  /**
   * Only these kinds are claimed (all when absent). A kind this process cannot send (lead emails
   * without SMTP_URL) then waits, pending, for an instance that can, instead of being failed.
   */
  kinds?: readonly string[];
  logger?: OutboxLogger;
  /** After this many failed attempts a message is left 'failed' for a person to look at. */
  maxAttempts?: number;
  /**
   * How long a claim keeps other instances off a message. Must outlast a send (sendTimeoutMs), or a
   * slow send could be claimed again and sent twice; if the process dies mid-send, the message is
   * retried once the lease runs out.
   */
  leaseMs?: number;
  /** A send still running after this counts as failed, so one hung server cannot stall the queue. */
  sendTimeoutMs?: number;
  now?: () => Date;
  random?: () => number;
};

export const MAX_ATTEMPTS = 8;
export const LEASE_MS = 5 * 60_000;
export const SEND_TIMEOUT_MS = 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

export type ProcessOutcome = "idle" | "sent" | "retry" | "failed";

/**
 * When to try again after the given failed attempt: 30 s, 2 min, 8 min, 32 min, then hourly. The
 * random 0-20 % shortening spreads out messages that failed together (a mail server outage), so
 * they do not all hit the recovered server in the same second.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 4 ** Math.max(0, attempt - 1), MAX_RETRY_MS);
  return Math.round(base * (1 - 0.2 * random()));
}

/**
 * Takes the oldest due message and leases it to the caller, in one statement so that two instances
 * never take the same one: SQLite runs the statement under its single write lock; on PostgreSQL
 * `FOR UPDATE SKIP LOCKED` makes a concurrent claimer pass over the row instead of waiting for it.
 */
export async function claimNextMessage(
  db: Kysely<Database>,
  dialect: DialectName,
  now: Date,
  leaseMs: number = LEASE_MS,
  kinds?: readonly string[],
): Promise<OutboxMessage | undefined> {
  if (kinds?.length === 0) return undefined;
  const at = now.toISOString();
  let due = db
    .selectFrom("outbox")
    .select("id")
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", at)
    .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<", at)]))
    .orderBy("id")
    .limit(1);
  if (kinds) due = due.where("kind", "in", kinds);
  if (dialect === "postgres") due = due.forUpdate().skipLocked();
  const row = await db
    .updateTable("outbox")
    .set((eb) => ({
      attempts: eb("attempts", "+", 1),
      lockedUntil: new Date(now.getTime() + leaseMs).toISOString(),
    }))
    .where("id", "=", due)
    // Checked again on the row as it is when locked: a belt to SKIP LOCKED's braces.
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<", at)]))
    .returning(["id", "kind", "payload", "attempts"])
    .executeTakeFirst();
  if (!row) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    payload = undefined;
  }
  return { id: Number(row.id), kind: row.kind, payload, attempts: Number(row.attempts) };
}

/**
 * A short, log-safe account of why a send failed: the error code, the SMTP reply code and the first
 * line of the message with anything that looks like an email address removed (servers echo
 * recipients back: "550 <sales@example.com>: mailbox unavailable").
 */
export function describeSendError(error: unknown): string {
  const details = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    responseCode?: unknown;
    message?: unknown;
  };
  const message = String(details.message ?? error)
    .split(/\r?\n/)[0]
    ?.replace(/[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+/g, "[address]")
    .slice(0, 300);
  const code = typeof details.code === "string" ? `${details.code}: ` : "";
  const reply =
    typeof details.responseCode === "number" && !message?.includes(String(details.responseCode))
      ? `SMTP ${details.responseCode} `
      : "";
  return `${code}${reply}${message ?? "unknown error"}`;
}

/** Claims and sends due messages one at a time; the background worker and the tests drive it. */
export function createOutboxProcessor({
  db,
  dialect,
  send,
  kinds,
  logger = { error: () => {} },
  maxAttempts = MAX_ATTEMPTS,
  leaseMs = LEASE_MS,
  sendTimeoutMs = SEND_TIMEOUT_MS,
  now = () => new Date(),
  random = Math.random,
}: OutboxProcessorOptions) {
  async function processNext(): Promise<ProcessOutcome> {
    const message = await claimNextMessage(db, dialect, now(), leaseMs, kinds);
    if (!message) return "idle";
    try {
      if (message.payload === undefined) throw new PermanentSendError("payload is not valid JSON");
      await withDeadline(send(message), sendTimeoutMs, `send timed out after ${sendTimeoutMs} ms`);
    } catch (error) {
      return recordFailure(message, error);
    }
    await db
      .updateTable("outbox")
      .set({ status: "sent", sentAt: now().toISOString(), lockedUntil: null, lastError: null })
      .where("id", "=", message.id)
      .execute();
    metrics.outboxSends.inc({ kind: message.kind, outcome: "sent" });
    return "sent";
  }

  async function recordFailure(message: OutboxMessage, error: unknown): Promise<ProcessOutcome> {
    const reason = describeSendError(error);
    const giveUp = error instanceof PermanentSendError || message.attempts >= maxAttempts;
    const retryAt = new Date(now().getTime() + retryDelayMs(message.attempts, random)).toISOString();
    await db
      .updateTable("outbox")
      .set({
        status: giveUp ? "failed" : "pending",
        nextAttemptAt: giveUp ? now().toISOString() : retryAt,
        lockedUntil: null,
        lastError: reason,
      })
      .where("id", "=", message.id)
      // NOTE: only while the claim is still ours. If the lease ran out and another instance took the
      // message (attempts moved on), its outcome is the one that counts.
      .where("attempts", "=", message.attempts)
      .where("status", "=", "pending")
      .execute();
    logger.error(
      `Outbox message ${message.id} (${message.kind}) attempt ${message.attempts} of ${maxAttempts} failed: ${reason}; ${
        giveUp ? "giving up (status 'failed')" : `next attempt at ${retryAt}`
      }`,
    );
    metrics.outboxSends.inc({ kind: message.kind, outcome: giveUp ? "failed" : "retry" });
    return giveUp ? "failed" : "retry";
  }

  return {
    processNext,
    /** Processes every due message; `shouldStop` is asked between messages. */
    async drain(shouldStop: () => boolean = () => false): Promise<Record<ProcessOutcome, number>> {
      const counts: Record<ProcessOutcome, number> = { idle: 0, sent: 0, retry: 0, failed: 0 };
      while (!shouldStop()) {
        const outcome = await processNext();
        counts[outcome]++;
        if (outcome === "idle") break;
      }
      return counts;
    },
  };
}

/**
 * One send for several kinds: each message goes to its kind's sender; the kinds listed are the ones
 * to claim (pass them as `kinds`, so a message of another kind is never claimed and failed here).
 */
export function dispatchByKind(senders: Record<string, OutboxSend>): { send: OutboxSend; kinds: string[] } {
  return {
    kinds: Object.keys(senders),
    send: (message) => {
      const send = Object.hasOwn(senders, message.kind) ? senders[message.kind] : undefined;
      if (!send) throw new PermanentSendError(`unknown kind "${message.kind}"`);
      return send(message);
    },
  };
}

export type OutboxWorkerOptions = OutboxProcessorOptions & {
  /** How often to look for due messages (retries, and messages queued by other instances). */
  pollMs?: number;
};

export type OutboxWorker = {
  /** Look for work now (a message was just queued) instead of at the next poll. Never blocks. */
  notify(): void;
  /** Processes everything due now; resolves when the queue has nothing more due. */
  drain(): Promise<void>;
  /** Stops polling and waits for a send in progress to finish and be recorded. */
  stop(): Promise<void>;
};

export const POLL_MS = 5000;

/**
 * Sends queued messages in the background. One pass at a time per worker: a notify() during a pass
 * makes the pass look again before it ends, so no message waits for the next poll.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { pollMs = POLL_MS, logger = { error: () => {} } } = options;
  const processor = createOutboxProcessor({ ...options, logger });
  let stopped = false;
  let wanted = false;
  let timer: NodeJS.Timeout | undefined;
  let active: Promise<void> | undefined;

  async function pass(): Promise<void> {
    while (wanted && !stopped) {
      wanted = false;
      try {
        await processor.drain(() => stopped);
      } catch (error) {
        // The database is unreachable or similar: try again at the next poll.
        logger.error(`Outbox worker could not process the queue: ${describeSendError(error)}`);
        return;
      }
    }
  }

  function wake(): void {
    if (stopped) return;
    wanted = true;
    if (active) return;
    clearTimeout(timer);
    active = pass().finally(() => {
      active = undefined;
      if (stopped) return;
      // A notify() that arrived as the pass gave up on an error still deserves a prompt look.
      timer = setTimeout(wake, wanted ? 0 : pollMs);
      // A forgotten stop() must not keep a process (a CLI, a test run) alive.
      timer.unref();
    });
  }

  // Catch up at once on messages queued while no worker was running.
  wake();

  return {
    notify() {
      // Off the caller's turn of the event loop: the request that queued the message answers first.
      setImmediate(wake);
    },
    async drain() {
      wake();
      while (active) await active;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await active;
    },
  };
}
