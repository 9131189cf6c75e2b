import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { claimJobLease, holdJobLease, releaseJobLease } from "#app/lib/job-lease.server.ts";
import { AuditBusyError } from "../audit-slots.server.ts";
import { type AlertChange, evaluateAlerts } from "./watch-alerts.ts";
import type { CheckRunners } from "./watch-runners.server.ts";
import { BUSY_RETRY_MS, nextRunAfter } from "./watch-schedule.ts";
import {
  type AlertRecord,
  findRun,
  findWatch,
  insertAlert,
  insertRun,
  openAlertsOf,
  previousValues,
  type RunDetail,
  recordNotices,
  resolveAlert,
  type WatchRecord,
  watchLeaseName,
} from "./watch-store.server.ts";
import { type RunResults, type RunStatus, WATCH_CHECK_LABELS } from "./watch-types.ts";

// One run of one watch (ADR 030): claim the watch's lease (job_leases `watch:<id>`), run its checks
// one after the other, then store the run, move the schedule on and open or resolve alerts in one
// transaction that first renews the lease. An instance that lost the lease (it stalled, another
// took over) writes nothing; an instance that died mid-run left `next_run_at` where it was, so the
// run is tried again once its lease runs out: retried, never stored twice.

/** What a watch's alerts become outside the feature: emails and `audit.alert` webhooks (composition root). */
export type AlertEvent = {
  type: "opened" | "resolved";
  alert: AlertRecord;
  watch: Pick<WatchRecord, "id" | "url" | "recipients">;
  occurredAt: Date;
};

export type AlertSink = {
  /** Queues the notices in the alert's own transaction; how many were queued. */
  raise(trx: Transaction<Database>, event: AlertEvent): Promise<number>;
  /** After the commit: wake whatever sends them. */
  afterCommit(): void;
};

export class WatchRunningError extends Error {
  constructor() {
    super("This watch is running right now; its result will be on the page in a moment.");
  }
}

/** The audits' slots were full: nothing stored, try again shortly. */
export class WatchBusyError extends AuditBusyError {}

export type WatchRunnerOptions = {
  db: Kysely<Database>;
  runners: CheckRunners;
  sink: AlertSink;
  /** This instance's name in the leases. */
  owner: string;
  now?: () => Date;
  leaseMs?: number;
};

export type RunWatch = (watchId: number, trigger: "schedule" | "manual") => Promise<RunDetail | undefined>;

function runStatus(results: RunResults): RunStatus {
  const outcomes = Object.values(results);
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  return failed === 0 ? "ok" : failed === outcomes.length ? "failed" : "partial";
}

export function createWatchRunner({
  db,
  runners,
  sink,
  owner,
  now = () => new Date(),
  leaseMs,
}: WatchRunnerOptions): RunWatch {
  return async (watchId, trigger) => {
    const name = watchLeaseName(watchId);
    const lease = () => ({ name, owner, now: now(), leaseMs });
    if (!(await claimJobLease(db, lease()))) {
      if (trigger === "manual") throw new WatchRunningError();
      return undefined;
    }
    try {
      const watch = await findWatch(db, watchId);
      if (!watch) return undefined;
      // Another instance may have run it between our look at the due list and our claim: it moved
      // next_run_at before it let the lease go, so this read sees it.
      if (trigger === "schedule" && (watch.paused || Date.parse(watch.nextRunAt) > now().getTime()))
        return undefined;
      const startedAt = now();
      const results: RunResults = {};
      for (const check of watch.checks) {
        const runner = runners[check] as ((url: string) => Promise<RunResults[typeof check]>) | undefined;
        try {
          results[check] = (
            runner
              ? await runner(watch.url)
              : {
                  ok: false,
                  error: `This server does not offer the ${WATCH_CHECK_LABELS[check].toLowerCase()}.`,
                }
          ) as never;
        } catch (error) {
          if (!(error instanceof AuditBusyError)) throw error;
          if (trigger === "schedule")
            await db.transaction().execute(async (trx) => {
              await holdJobLease(trx, lease());
              await trx
                .updateTable("watches")
                .set({ nextRunAt: new Date(now().getTime() + BUSY_RETRY_MS).toISOString() })
                .where("id", "=", watchId)
                .execute();
            });
          throw new WatchBusyError();
        }
        // A long run (a lab check takes up to a minute) keeps its lease.
        await db.transaction().execute((trx) => holdJobLease(trx, lease()));
      }
      const finishedAt = now();
      const runId = await db.transaction().execute(async (trx) => {
        await holdJobLease(trx, lease());
        const [previous, open] = await Promise.all([
          previousValues(trx, watchId),
          openAlertsOf(trx, watchId),
        ]);
        const changes = evaluateAlerts(results, previous, open);
        const status = runStatus(results);
        const id = await insertRun(trx, { watchId, trigger, startedAt, finishedAt, status, results });
        await trx
          .updateTable("watches")
          .set({
            lastRunAt: finishedAt.toISOString(),
            lastStatus: status,
            ...(trigger === "schedule"
              ? { nextRunAt: nextRunAfter(watchId, watch.every, finishedAt).toISOString() }
              : {}),
          })
          .where("id", "=", watchId)
          .execute();
        for (const change of changes) await applyAlertChange(trx, sink, watch, change, id, finishedAt);
        return id;
      });
      sink.afterCommit();
      return findRun(db, watchId, runId);
    } finally {
      await releaseJobLease(db, name, owner);
    }
  };
}

async function applyAlertChange(
  trx: Transaction<Database>,
  sink: AlertSink,
  watch: WatchRecord,
  change: AlertChange,
  runId: number,
  now: Date,
): Promise<void> {
  const target = { id: watch.id, url: watch.url, recipients: watch.recipients };
  if (change.kind === "open") {
    const alert = await insertAlert(trx, {
      watchId: watch.id,
      condition: change.condition,
      message: change.message,
      detail: change.detail,
      runId,
      now,
    });
    const queued = await sink.raise(trx, { type: "opened", alert, watch: target, occurredAt: now });
    await recordNotices(trx, alert.id, "opened", queued);
    return;
  }
  const alert = await resolveAlert(trx, { id: change.alertId, message: change.message, runId, now });
  if (!alert) return;
  const queued = await sink.raise(trx, { type: "resolved", alert, watch: target, occurredAt: now });
  await recordNotices(trx, alert.id, "resolved", queued);
}
