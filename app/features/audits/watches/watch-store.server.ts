import type { Kysely, Selectable, Transaction } from "kysely";
import type { Database, WatchesTable, WatchRunsTable } from "#app/db/schema.ts";
import type { AlertDetail, OpenAlertRow, PreviousValues } from "./watch-alerts.ts";
import { nextRunAfter } from "./watch-schedule.ts";
import type { RunResults, RunStatus, WatchCheck, WatchEvery } from "./watch-types.ts";

// The watches' rows (migration 030): watches, their runs and their alerts, as the pages and the API
// show them. Every function takes the handle first, so a run's writes share its transaction.

type Db = Kysely<Database> | Transaction<Database>;

/** The job lease a run of this watch holds (job_leases.name). */
export const watchLeaseName = (watchId: number) => `watch:${watchId}`;

/** A run as the trends and the run list read it: the row's numbers, without its JSON results. */
export type RunSummary = Omit<Selectable<WatchRunsTable>, "watchId" | "results" | "tlsVerified"> & {
  tlsVerified: boolean | null;
};
export type RunDetail = RunSummary & { watchId: number; results: RunResults };

export type WatchRecord = {
  id: number;
  url: string;
  checks: WatchCheck[];
  every: WatchEvery;
  recipients: string[];
  paused: boolean;
  nextRunAt: string;
  lastRunAt: string | null;
  lastStatus: RunStatus | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
};

export type AlertRecord = {
  id: number;
  watchId: number;
  url?: string;
  condition: string;
  message: string;
  detail: AlertDetail;
  openedAt: string;
  openedRunId: number | null;
  resolvedAt: string | null;
  resolvedRunId: number | null;
  resolvedMessage: string | null;
  openedNotices: number;
  resolvedNotices: number | null;
};

function parseList<T extends string>(text: string): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value.filter((item) => typeof item === "string") as T[]) : [];
  } catch {
    return [];
  }
}

function toWatch(row: Selectable<WatchesTable>): WatchRecord {
  return {
    id: Number(row.id),
    url: row.url,
    checks: parseList<WatchCheck>(row.checks),
    every: row.every,
    recipients: parseList(row.recipients),
    paused: Number(row.paused) === 1,
    nextRunAt: row.nextRunAt,
    lastRunAt: row.lastRunAt,
    lastStatus: row.lastStatus as RunStatus | null,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    updatedAt: row.updatedAt,
  };
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

function toRunSummary(row: Omit<Selectable<WatchRunsTable>, "results" | "watchId">): RunSummary {
  return {
    id: Number(row.id),
    trigger: row.trigger,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    status: row.status,
    securityScore: numberOrNull(row.securityScore),
    securityGrade: row.securityGrade,
    httpStatus: numberOrNull(row.httpStatus),
    loadTimeMs: numberOrNull(row.loadTimeMs),
    labScore: numberOrNull(row.labScore),
    lcpMs: numberOrNull(row.lcpMs),
    cls: numberOrNull(row.cls),
    tbtMs: numberOrNull(row.tbtMs),
    tlsDaysLeft: numberOrNull(row.tlsDaysLeft),
    tlsVerified: row.tlsVerified === null ? null : Number(row.tlsVerified) === 1,
  };
}

const SUMMARY_COLUMNS = [
  "id",
  "trigger",
  "startedAt",
  "finishedAt",
  "status",
  "securityScore",
  "securityGrade",
  "httpStatus",
  "loadTimeMs",
  "labScore",
  "lcpMs",
  "cls",
  "tbtMs",
  "tlsDaysLeft",
  "tlsVerified",
] as const;

function toAlert(row: Record<string, unknown>): AlertRecord {
  let detail: AlertDetail = {};
  try {
    detail = JSON.parse(String(row.detail)) as AlertDetail;
  } catch {}
  return {
    id: Number(row.id),
    watchId: Number(row.watchId),
    ...(typeof row.url === "string" ? { url: row.url } : {}),
    condition: String(row.condition),
    message: String(row.message),
    detail,
    openedAt: String(row.openedAt),
    openedRunId: numberOrNull(row.openedRunId as number | null),
    resolvedAt: (row.resolvedAt as string | null) ?? null,
    resolvedRunId: numberOrNull(row.resolvedRunId as number | null),
    resolvedMessage: (row.resolvedMessage as string | null) ?? null,
    openedNotices: Number(row.openedNotices),
    resolvedNotices: numberOrNull(row.resolvedNotices as number | null),
  };
}

export type NewWatch = {
  url: string;
  checks: WatchCheck[];
  every: WatchEvery;
  recipients: string[];
  createdBy: string;
};

/** Stores a watch; its first run is its first slot of the period (watch-schedule.ts). */
export async function insertWatch(
  db: Kysely<Database>,
  watch: NewWatch,
  now = new Date(),
): Promise<WatchRecord> {
  return db.transaction().execute(async (trx) => {
    const at = now.toISOString();
    const row = await trx
      .insertInto("watches")
      .values({
        url: watch.url,
        checks: JSON.stringify(watch.checks),
        every: watch.every,
        recipients: JSON.stringify(watch.recipients),
        paused: 0,
        // Replaced below, once the id (which sets the phase) is known.
        nextRunAt: at,
        lastRunAt: null,
        lastStatus: null,
        createdAt: at,
        createdBy: watch.createdBy,
        updatedAt: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await trx
      .updateTable("watches")
      .set({ nextRunAt: nextRunAfter(id, watch.every, now).toISOString() })
      .where("id", "=", id)
      .execute();
    return toWatch(
      await trx.selectFrom("watches").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    );
  });
}

export async function findWatch(db: Db, id: number): Promise<WatchRecord | undefined> {
  const row = await db.selectFrom("watches").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toWatch(row) : undefined;
}

export async function countWatches(db: Db): Promise<number> {
  const row = await db
    .selectFrom("watches")
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export type WatchListItem = WatchRecord & { openAlerts: number; latestRun: RunSummary | null };

/** Every watch, oldest first, with its latest run's numbers and how many alerts are open. */
export async function listWatches(db: Db): Promise<WatchListItem[]> {
  const watches = (await db.selectFrom("watches").selectAll().orderBy("id").execute()).map(toWatch);
  if (watches.length === 0) return [];
  const ids = watches.map((watch) => watch.id);
  const [alerts, latest] = await Promise.all([
    db
      .selectFrom("watchAlerts")
      .select(["watchId", (eb) => eb.fn.countAll().as("count")])
      .where("resolvedAt", "is", null)
      .where("watchId", "in", ids)
      .groupBy("watchId")
      .execute(),
    db
      .selectFrom("watchRuns")
      .select(["watchId", ...SUMMARY_COLUMNS])
      .where("id", "in", (eb) =>
        eb
          .selectFrom("watchRuns")
          .select((inner) => inner.fn.max("id").as("id"))
          .where("watchId", "in", ids)
          .groupBy("watchId"),
      )
      .execute(),
  ]);
  return watches.map((watch) => {
    const run = latest.find((row) => Number(row.watchId) === watch.id);
    return {
      ...watch,
      openAlerts: Number(alerts.find((row) => Number(row.watchId) === watch.id)?.count ?? 0),
      latestRun: run ? toRunSummary(run) : null,
    };
  });
}

export type WatchChanges = {
  url?: string;
  checks?: WatchCheck[];
  every?: WatchEvery;
  recipients?: string[];
  paused?: boolean;
};

/** Applies the changes; a new period (or a resumed watch) moves the next run to its next slot. */
export async function updateWatch(
  db: Kysely<Database>,
  id: number,
  changes: WatchChanges,
  now = new Date(),
): Promise<WatchRecord | undefined> {
  return db.transaction().execute(async (trx) => {
    const current = await findWatch(trx, id);
    if (!current) return undefined;
    const every = changes.every ?? current.every;
    const reschedule = every !== current.every || (current.paused && changes.paused === false);
    await trx
      .updateTable("watches")
      .set({
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.checks !== undefined ? { checks: JSON.stringify(changes.checks) } : {}),
        ...(changes.recipients !== undefined ? { recipients: JSON.stringify(changes.recipients) } : {}),
        ...(changes.paused !== undefined ? { paused: changes.paused ? 1 : 0 } : {}),
        every,
        ...(reschedule ? { nextRunAt: nextRunAfter(id, every, now).toISOString() } : {}),
        updatedAt: now.toISOString(),
      })
      .where("id", "=", id)
      .execute();
    return findWatch(trx, id);
  });
}

/** Deletes the watch with its runs and alerts (cascade) and its lease row. */
export async function deleteWatch(db: Kysely<Database>, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom("watches").where("id", "=", id).executeTakeFirst();
    await trx.deleteFrom("jobLeases").where("name", "=", watchLeaseName(id)).execute();
    return Number(result.numDeletedRows) === 1;
  });
}

/** Active watches whose next run is due, the longest overdue first. */
export async function dueWatchIds(db: Db, now: Date, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("watches")
    .select("id")
    .where("paused", "=", 0)
    .where("nextRunAt", "<=", now.toISOString())
    .orderBy("nextRunAt")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => Number(row.id));
}

/** The watch's runs, newest first. */
export async function listRuns(db: Db, watchId: number, { limit = 100 } = {}): Promise<RunSummary[]> {
  const rows = await db
    .selectFrom("watchRuns")
    .select(SUMMARY_COLUMNS)
    .where("watchId", "=", watchId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toRunSummary);
}

export async function findRun(db: Db, watchId: number, runId: number): Promise<RunDetail | undefined> {
  const row = await db
    .selectFrom("watchRuns")
    .selectAll()
    .where("watchId", "=", watchId)
    .where("id", "=", runId)
    .executeTakeFirst();
  if (!row) return undefined;
  let results: RunResults = {};
  try {
    results = JSON.parse(row.results) as RunResults;
  } catch {}
  return { ...toRunSummary(row), watchId: Number(row.watchId), results };
}

/** The latest grade and lab score measured before now, for the drops to compare with. */
export async function previousValues(db: Db, watchId: number): Promise<PreviousValues> {
  const latest = <C extends "securityGrade" | "labScore">(column: C) =>
    db
      .selectFrom("watchRuns")
      .select(column)
      .where("watchId", "=", watchId)
      .where(column, "is not", null)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  const [grade, lab] = await Promise.all([latest("securityGrade"), latest("labScore")]);
  return { grade: grade?.securityGrade ?? null, labScore: numberOrNull(lab?.labScore ?? null) };
}

export async function openAlertsOf(db: Db, watchId: number): Promise<OpenAlertRow[]> {
  const rows = await db
    .selectFrom("watchAlerts")
    .select(["id", "condition", "detail"])
    .where("watchId", "=", watchId)
    .where("resolvedAt", "is", null)
    .execute();
  return rows.map((row) => toAlert(row as unknown as Record<string, unknown>));
}

/** A watch's alerts, open and resolved, newest first. */
export async function listAlerts(db: Db, watchId: number, { limit = 50 } = {}): Promise<AlertRecord[]> {
  const rows = await db
    .selectFrom("watchAlerts")
    .selectAll()
    .where("watchId", "=", watchId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => toAlert(row as unknown as Record<string, unknown>));
}

/** Every open alert of every watch, newest first, with the watch's address. */
export async function listOpenAlerts(db: Db, { limit = 100 } = {}): Promise<AlertRecord[]> {
  const rows = await db
    .selectFrom("watchAlerts")
    .innerJoin("watches", "watches.id", "watchAlerts.watchId")
    .selectAll("watchAlerts")
    .select("watches.url")
    .where("watchAlerts.resolvedAt", "is", null)
    .orderBy("watchAlerts.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => toAlert(row as unknown as Record<string, unknown>));
}

export type NewRun = {
  watchId: number;
  trigger: "schedule" | "manual";
  startedAt: Date;
  finishedAt: Date;
  status: RunStatus;
  results: RunResults;
};

/** Stores a run with its summary columns read from the checks' summaries. */
export async function insertRun(db: Db, run: NewRun): Promise<number> {
  const { security, performance, lab, tls } = run.results;
  const row = await db
    .insertInto("watchRuns")
    .values({
      watchId: run.watchId,
      trigger: run.trigger,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt.toISOString(),
      status: run.status,
      results: JSON.stringify(run.results),
      securityScore: security?.ok ? security.summary.score : null,
      securityGrade: security?.ok ? security.summary.grade : null,
      // 0: the site gave no answer at all.
      httpStatus: performance?.ok ? performance.summary.status : performance?.unanswered ? 0 : null,
      loadTimeMs: performance?.ok ? Math.round(performance.summary.loadTime) : null,
      labScore: lab?.ok ? Math.round(lab.summary.score) : null,
      lcpMs: lab?.ok ? lab.summary.lcp : null,
      cls: lab?.ok ? lab.summary.cls : null,
      tbtMs: lab?.ok ? lab.summary.tbt : null,
      tlsDaysLeft: tls?.ok ? tls.summary.daysLeft : null,
      tlsVerified: tls?.ok ? (tls.summary.verified ? 1 : 0) : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertAlert(
  db: Db,
  alert: {
    watchId: number;
    condition: string;
    message: string;
    detail: AlertDetail;
    runId: number;
    now: Date;
  },
): Promise<AlertRecord> {
  const row = await db
    .insertInto("watchAlerts")
    .values({
      watchId: alert.watchId,
      condition: alert.condition,
      message: alert.message,
      detail: JSON.stringify(alert.detail),
      openedAt: alert.now.toISOString(),
      openedRunId: alert.runId,
      resolvedAt: null,
      resolvedRunId: null,
      resolvedMessage: null,
      resolvedNotices: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAlert(row as unknown as Record<string, unknown>);
}

/** Resolves an open alert; undefined when it was not open (any more). */
export async function resolveAlert(
  db: Db,
  alert: { id: number; message: string; runId: number; now: Date },
): Promise<AlertRecord | undefined> {
  const row = await db
    .updateTable("watchAlerts")
    .set({ resolvedAt: alert.now.toISOString(), resolvedRunId: alert.runId, resolvedMessage: alert.message })
    .where("id", "=", alert.id)
    .where("resolvedAt", "is", null)
    .returningAll()
    .executeTakeFirst();
  return row ? toAlert(row as unknown as Record<string, unknown>) : undefined;
}

export async function recordNotices(db: Db, alertId: number, which: "opened" | "resolved", count: number) {
  await db
    .updateTable("watchAlerts")
    .set(which === "opened" ? { openedNotices: count } : { resolvedNotices: count })
    .where("id", "=", alertId)
    .execute();
}
