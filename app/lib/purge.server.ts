import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type BackgroundJob, createBackgroundJob, yieldToRequests } from "./background-job.ts";
import { claimJobLease, holdJobLease, releaseJobLease } from "./job-lease.server.ts";

// The retention purge (issue 13): each category of data that outlives its period (app/retention.server.ts
// lists them: leads to anonymise, held spam, expired sessions and throttle counters, sent outbox
// rows) is counted, or removed batch by batch. The server runs it once a day on one instance at a
// time (a lease in job_leases); `npm run db:purge` runs it by hand, `-- --dry-run` only counts.
// Everything it says is counts: never a name, an email or an address.

export const PURGE_JOB = "retention-purge";
const DAY_MS = 86_400_000;
// Rows per transaction: about 2 ms of SQLite's writer (on the event loop) at 100,000 leads.
const BATCH = 100;

export type PurgeBatch = {
  /** The run's start: every cutoff is measured from it, so a run has one meaning throughout. */
  now: Date;
  limit: number;
  /** Renews the lease inside the batch's transaction; throws when another instance has it. */
  assertHeld: (trx: Transaction<Database>) => Promise<void>;
};

export type PurgeCategory = {
  /** A stable name for the log and the job's recorded result: `leadsAnonymised`. */
  key: string;
  /** What the command prints: "leads without activity for 24 months (anonymised)". */
  label: string;
  /** How many rows the purge would remove (or anonymise) now. */
  count(now: Date): Promise<number>;
  /** Removes at most about `limit` (one batch); how many. Fewer than `limit`: nothing is left. */
  purge(batch: PurgeBatch): Promise<number>;
};

export type PurgeCount = { key: string; label: string; count: number };

export type PurgeResult =
  | { ran: true; dryRun: boolean; counts: PurgeCount[]; stopped: boolean }
  /** Another instance holds the lease, or (daily) the purge already ran within the day. */
  | { ran: false };

export type PurgeOptions = {
  db: Kysely<Database>;
  categories: readonly PurgeCategory[];
  /** Count only: nothing is written, no lease is taken. */
  dryRun?: boolean;
  /** Run only if no purge finished in the last 24 hours (the server's daily run). */
  daily?: boolean;
  owner?: string;
  /** The time, read for each renewal of the lease; the run's cutoffs use its first reading. */
  clock?: () => Date;
  /** Asked between batches: true stops the run there (shutdown). */
  stopping?: () => boolean;
  batchSize?: number;
};

/** Counts (dry run) or purges every category, under the lease; see PurgeResult. */
export async function runPurge({
  db,
  categories,
  dryRun = false,
  daily = false,
  owner = randomBytes(8).toString("hex"),
  clock = () => new Date(),
  stopping = () => false,
  batchSize = BATCH,
}: PurgeOptions): Promise<PurgeResult> {
  const now = clock();
  if (dryRun) {
    const counts: PurgeCount[] = [];
    for (const { key, label, count } of categories) counts.push({ key, label, count: await count(now) });
    return { ran: true, dryRun: true, counts, stopped: false };
  }
  const claimed = await claimJobLease(db, {
    name: PURGE_JOB,
    owner,
    now,
    notFinishedSince: daily ? new Date(now.getTime() - DAY_MS) : undefined,
  });
  if (!claimed) return { ran: false };
  const counts: PurgeCount[] = [];
  let stopped = false;
  try {
    const assertHeld = (trx: Transaction<Database>) =>
      holdJobLease(trx, { name: PURGE_JOB, owner, now: clock() });
    for (const { key, label, purge } of categories) {
      let total = 0;
      for (;;) {
        if (stopping()) {
          stopped = true;
          break;
        }
        const removed = await purge({ now, limit: batchSize, assertHeld });
        total += removed;
        if (removed < batchSize) break;
        await yieldToRequests();
      }
      counts.push({ key, label, count: total });
      if (stopped) break;
    }
  } catch (error) {
    await releaseJobLease(db, PURGE_JOB, owner);
    throw error;
  }
  // A run cut short by shutdown is not recorded as done: the next instance to check finishes it.
  await releaseJobLease(
    db,
    PURGE_JOB,
    owner,
    stopped ? undefined : { at: clock(), result: Object.fromEntries(counts.map((c) => [c.key, c.count])) },
  );
  return { ran: true, dryRun: false, counts, stopped };
}

/** "leadsAnonymised 3, spamDeleted 0, …": counts only, for the log. */
export function describeCounts(counts: readonly PurgeCount[]): string {
  return counts.map(({ key, count }) => `${key} ${count}`).join(", ");
}

export type DailyPurge = BackgroundJob;

/** The purge services.server.ts checks at start-up and with the housekeeping (every 10 minutes). */
export function createDailyPurge({
  db,
  categories,
  logger,
}: {
  db: Kysely<Database>;
  categories: readonly PurgeCategory[];
  logger: { info(message: string): void; error(message: string): void };
}): DailyPurge {
  return createBackgroundJob({
    work: ({ owner, stopping }) => runPurge({ db, categories, daily: true, owner, stopping }),
    onDone: (result) => {
      if (result.ran)
        logger.info(
          `Retention purge${result.stopped ? " (stopped at shutdown)" : ""}: ${describeCounts(result.counts)}`,
        );
    },
    onError: (message) => logger.error(`Retention purge failed (${message})`),
  });
}
