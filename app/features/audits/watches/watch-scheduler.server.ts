import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { AuditBusyError } from "../audit-slots.server.ts";
import type { RunWatch } from "./watch-run.server.ts";
import { dueWatchIds } from "./watch-store.server.ts";

// Every instance looks for due watches now and then and runs them one at a time (each check under
// the audits' slots, so staff's own audits still get their turn). Which instance runs a watch is
// decided per watch by its lease (watch-run.server.ts), so two instances never run the same one,
// and the schedule lives in the database: a restarted instance picks up what fell due meanwhile.

export type WatchScheduler = {
  start(): void;
  /** Stops looking and waits for a run in progress (its checks are bounded by their own time limits). */
  stop(): Promise<void>;
  /** One look: runs what is due. Resolves when done (tests call it directly). */
  tick(): Promise<void>;
};

export type WatchSchedulerOptions = {
  db: Kysely<Database>;
  runWatch: RunWatch;
  pollMs: number;
  logger: { error(message: string): void };
  now?: () => Date;
};

/** Due watches taken per look; the rest wait for the next one. */
const BATCH = 10;

export function createWatchScheduler({
  db,
  runWatch,
  pollMs,
  logger,
  now = () => new Date(),
}: WatchSchedulerOptions): WatchScheduler {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let stopped = false;

  const look = async () => {
    let due: number[];
    try {
      due = await dueWatchIds(db, now(), BATCH);
    } catch (error) {
      logger.error(`Watches: reading the due watches failed: ${(error as Error).message}`);
      return;
    }
    for (const id of due) {
      if (stopped) return;
      try {
        await runWatch(id, "schedule");
      } catch (error) {
        // Busy: the run was moved a minute on. Anything else is logged and retried at the next look.
        if (!(error instanceof AuditBusyError))
          logger.error(`Watches: the run of watch ${id} failed: ${(error as Error).message}`);
      }
    }
  };

  const tick = () => {
    // One look at a time on an instance: a long run is never joined by a second one.
    current ??= look().finally(() => {
      current = undefined;
    });
    return current;
  };

  return {
    start() {
      if (timer) return;
      stopped = false;
      timer = setInterval(() => void tick(), pollMs);
      timer.unref();
      void tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await current;
    },
    tick,
  };
}
