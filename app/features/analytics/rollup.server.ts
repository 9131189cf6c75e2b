import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type BackgroundJob, createBackgroundJob, yieldToRequests } from "#app/lib/background-job.ts";
import { claimJobLease, holdJobLease, JOB_LEASE_MS, releaseJobLease } from "#app/lib/job-lease.server.ts";
import { channelOf } from "./channel.ts";
import { utcDay } from "./daily-salt.server.ts";
import { FORM_PAGES, FORM_VISITORS_DIMENSION, FORM_VISITORS_VALUE } from "./form-pages.ts";

// Daily rollups and retention (issue 12): each UTC day of page views, once it is over, is counted
// into daily totals and counts (migration 017), kept for good; its raw views stay ANALYTICS_RAW_DAYS
// besides today (attribution and the hour-by-hour chart read them), then are deleted. The reports
// read the rollups for every counted day and the raw views only for the days after (today), so a
// 12-month report reads 365 rows of totals and the counts of its values, never a year of views.
// One instance at a time holds the job's lease (lib/job-lease.server.ts, a row in job_leases, as the
// retention purge's); and the work is idempotent whoever runs it:
//
// 1. A day is due when it is over (plus DAY_SETTLE_MS, for the views still in the instances'
//    buffers) and holds raw views above its `rolled_through_id` (none yet: 0). Those views are read
//    in pages, off the event loop (SQLite reads go to reader threads) and counted in memory: views,
//    distinct visitors, and per visitor its first view of the day, which gives the visitor's entry
//    page, referrer, channel (channel.ts, the rules of attribution), UTM values, device and browser.
// 2. One transaction, only while the lease is still ours, adds the counts and records the highest
//    raw id they cover (`rolled_through_id`).
// 3. A day past retention has its counted raw views deleted in small statements, so SQLite's writer
//    (on the event loop) is never held long; views it had not counted are counted first.
//
// Views of a day arrive within seconds of it. Should raw views still turn up for a counted day (a
// database outage kept them in an instance's buffer, a clock gone wrong), the next run adds them to
// it: views stay exact, a visitor seen in both batches counts twice. Until then the reports leave
// them out (they read a counted day from its rollup only).

export const ROLLUP_JOB = "rollup";
/** How long a claim keeps other instances off; renewed after every day rolled up. */
export const LEASE_MS = JOB_LEASE_MS;
const READ_PAGE = 5000;
const DELETE_CHUNK = 1000;
const INSERT_CHUNK = 100;
const DAY_MS = 86_400_000;
/** A day is counted this long after it ends: every instance has flushed its views by then (2 s). */
export const DAY_SETTLE_MS = 5 * 60_000;

export const DIMENSIONS = [
  "page",
  "entry_page",
  "not_found",
  "referrer",
  "channel",
  "campaign",
  "source",
  "medium",
  "device",
  "browser",
  // The funnel's visitors who viewed a page with a form (form-pages.ts); one value, "any".
  FORM_VISITORS_DIMENSION,
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/**
 * Dimensions whose values visitors choose (a path, a referrer, UTM values): a scanner inventing a
 * new one per request would otherwise add a kept row per value and day, and every report would sum
 * them. Each day keeps its MAX_VALUES_PER_DAY most viewed values of these and folds the rest into
 * one OTHER_VALUE row (its views exact; its visitors the sum over the folded values, so a visitor
 * seen on two of them counts twice there). Channels, devices and browsers come from short fixed lists.
 */
const OPEN_DIMENSIONS: ReadonlySet<Dimension> = new Set([
  "page",
  "entry_page",
  "not_found",
  "referrer",
  "campaign",
  "source",
  "medium",
]);
export const MAX_VALUES_PER_DAY = 200;
export const OTHER_VALUE = "(other)";

type CountRow = { dimension: Dimension; day: string; value: string; views: number; visitors: number };

/** `rows` with each open dimension cut to its MAX_VALUES_PER_DAY most viewed values plus OTHER_VALUE. */
export function foldRareValues(rows: CountRow[]): CountRow[] {
  const byDimension = new Map<Dimension, CountRow[]>();
  for (const row of rows) {
    const group = byDimension.get(row.dimension);
    if (group) group.push(row);
    else byDimension.set(row.dimension, [row]);
  }
  const kept: CountRow[] = [];
  for (const [dimension, group] of byDimension) {
    if (!OPEN_DIMENSIONS.has(dimension) || group.length <= MAX_VALUES_PER_DAY) {
      kept.push(...group);
      continue;
    }
    group.sort((a, b) => b.views - a.views || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const top = group.slice(0, MAX_VALUES_PER_DAY);
    const rest = group.slice(MAX_VALUES_PER_DAY);
    const other =
      top.find((row) => row.value === OTHER_VALUE) ?? rest.find((row) => row.value === OTHER_VALUE);
    const folded: CountRow = other
      ? { ...other }
      : { dimension, day: group[0]?.day ?? "", value: OTHER_VALUE, views: 0, visitors: 0 };
    for (const row of rest) {
      if (row.value === OTHER_VALUE) continue;
      folded.views += row.views;
      folded.visitors += row.visitors;
    }
    kept.push(...top.filter((row) => row.value !== OTHER_VALUE), folded);
  }
  return kept;
}

type RawView = {
  id: number | string;
  occurredAt: string;
  path: string;
  referrerHost: string | null;
  referrerPath: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  paidClick: number;
  device: string;
  browser: string;
  visitorId: string;
  isNotFound: number;
};

type Tally = { views: number; visitors: Set<string> };

/** One day's counts, built a page of raw views at a time. */
class DayTally {
  views = 0;
  notFoundViews = 0;
  lastId = 0;
  readonly visitors = new Map<string, { views: number; first: RawView; sawForm: boolean }>();
  readonly paths = new Map<string, Tally>();
  readonly notFound = new Map<string, Tally>();

  add(view: RawView): void {
    const id = Number(view.id);
    if (id > this.lastId) this.lastId = id;
    this.views++;
    const byPath = view.isNotFound ? this.notFound : this.paths;
    if (view.isNotFound) this.notFoundViews++;
    let tally = byPath.get(view.path);
    if (!tally) {
      tally = { views: 0, visitors: new Set() };
      byPath.set(view.path, tally);
    }
    tally.views++;
    tally.visitors.add(view.visitorId);
    const sawForm = !view.isNotFound && FORM_PAGES.includes(view.path);
    const visitor = this.visitors.get(view.visitorId);
    if (!visitor) this.visitors.set(view.visitorId, { views: 1, first: view, sawForm });
    else {
      visitor.views++;
      if (sawForm) visitor.sawForm = true;
      const first = visitor.first;
      if (
        view.occurredAt < first.occurredAt ||
        (view.occurredAt === first.occurredAt && id < Number(first.id))
      )
        visitor.first = view;
    }
  }

  /** The rows of analytics_daily_counts for `day`. */
  counts(
    day: string,
  ): { dimension: Dimension; day: string; value: string; views: number; visitors: number }[] {
    const rows: { dimension: Dimension; day: string; value: string; views: number; visitors: number }[] = [];
    for (const [value, tally] of this.paths)
      rows.push({ dimension: "page", day, value, views: tally.views, visitors: tally.visitors.size });
    for (const [value, tally] of this.notFound)
      rows.push({ dimension: "not_found", day, value, views: tally.views, visitors: tally.visitors.size });
    // Per visitor, from its first view of the day: each visitor counted once per dimension, with all its views.
    const byVisitor = new Map<string, { views: number; visitors: number }>();
    const count = (dimension: Dimension, value: string | null, views: number) => {
      if (value === null) return;
      const key = `${dimension}\u0000${value}`;
      const entry = byVisitor.get(key);
      if (entry) {
        entry.views += views;
        entry.visitors++;
      } else byVisitor.set(key, { views, visitors: 1 });
    };
    for (const { views, first, sawForm } of this.visitors.values()) {
      const external = first.referrerPath !== null;
      count("entry_page", first.path, views);
      count("referrer", external ? first.referrerHost : null, views);
      count("channel", channelOf({ ...first, paidClick: Boolean(first.paidClick) }), views);
      count("campaign", first.utmCampaign, views);
      count("source", first.utmSource, views);
      count("medium", first.utmMedium, views);
      count("device", first.device, views);
      count("browser", first.browser, views);
      if (sawForm) count(FORM_VISITORS_DIMENSION, FORM_VISITORS_VALUE, views);
    }
    for (const [key, entry] of byVisitor) {
      const [dimension, value] = key.split("\u0000") as [Dimension, string];
      rows.push({ dimension, day, value, ...entry });
    }
    return foldRareValues(rows);
  }
}

export type RollupOptions = {
  db: Kysely<Database>;
  /** ANALYTICS_RAW_DAYS: days of raw views kept besides today. */
  rawDays: number;
  now?: () => Date;
  /** This instance's name on the lease (random by default). */
  owner?: string;
  /** At most this many days per run (a backlog is worked off over several runs). */
  maxDays?: number;
  /** Asked between days: true stops the run there (shutdown). */
  stopping?: () => boolean;
};

export type RollupResult = {
  /** Days counted (or topped up) by this run, oldest first. */
  days: string[];
  /** Days whose raw views this run deleted (past retention). */
  expired: string[];
  busy: boolean;
};

/** The first day whose raw views are kept: days before it are deleted once counted. */
export function firstRawDay(now: Date, rawDays: number): string {
  return utcDay(new Date(now.getTime() - rawDays * DAY_MS));
}

/**
 * Days that are over and hold raw views not counted yet, oldest first, with what is counted of
 * them. One pass over the raw days' time index (ids only), on a reader thread for SQLite.
 */
async function dueDays(db: Kysely<Database>, before: string): Promise<{ day: string; covered: number }[]> {
  const [raw, rolled] = await Promise.all([
    db
      .selectFrom("analyticsPageViews")
      .select([sql<string>`substr(occurred_at, 1, 10)`.as("day"), (eb) => eb.fn.max("id").as("last")])
      .where("occurredAt", "<", `${before}T00:00:00.000Z`)
      .groupBy(sql`substr(occurred_at, 1, 10)`)
      .execute(),
    db
      .selectFrom("analyticsDailyTotals")
      .select(["day", "rolledThroughId"])
      .where("day", "<", before)
      .execute(),
  ]);
  const covered = new Map(rolled.map((row) => [row.day, Number(row.rolledThroughId)]));
  return raw
    .map((row) => ({ day: row.day, last: Number(row.last), covered: covered.get(row.day) ?? 0 }))
    .filter((row) => row.last > row.covered)
    .sort((a, b) => (a.day < b.day ? -1 : 1))
    .map(({ day, covered }) => ({ day, covered }));
}

/**
 * Counts every day that is over and has views not counted yet, oldest first, and deletes the raw
 * views of the days past retention; does nothing but two reads when there is nothing to do, and
 * nothing when another instance holds the lease (`busy`).
 */
export async function rollUpExpiredDays({
  db,
  rawDays,
  now = () => new Date(),
  owner = randomBytes(8).toString("hex"),
  maxDays = 400,
  stopping = () => false,
}: RollupOptions): Promise<RollupResult> {
  const oldestExpired = async () => {
    const cutoff = `${firstRawDay(now(), rawDays)}T00:00:00.000Z`;
    const row = await db
      .selectFrom("analyticsPageViews")
      .select("occurredAt")
      .where("occurredAt", "<", cutoff)
      .orderBy("occurredAt")
      .limit(1)
      .executeTakeFirst();
    return row ? utcDay(row.occurredAt) : undefined;
  };
  const countedBefore = () => utcDay(new Date(now().getTime() - DAY_SETTLE_MS));
  const result: RollupResult = { days: [], expired: [], busy: false };
  const due = await dueDays(db, countedBefore());
  if (due.length === 0 && (await oldestExpired()) === undefined) return result;
  if (!(await claimLease(db, owner, now()))) return { ...result, busy: true };
  try {
    for (const { day } of due) {
      if (result.days.length >= maxDays || stopping()) break;
      if (await rollUpDay(db, day, owner, now)) result.days.push(day);
    }
    for (
      let day = await oldestExpired();
      day !== undefined && result.expired.length < maxDays && !stopping();
      day = await oldestExpired()
    ) {
      // Views that arrived after the day was counted are counted before they go.
      if ((await rollUpDay(db, day, owner, now)) && !result.days.includes(day)) result.days.push(day);
      const start = `${day}T00:00:00.000Z`;
      const rolled = await db
        .selectFrom("analyticsDailyTotals")
        .select("rolledThroughId")
        .where("day", "=", day)
        .executeTakeFirstOrThrow();
      await deleteRaw(
        db,
        start,
        new Date(Date.parse(start) + DAY_MS).toISOString(),
        Number(rolled.rolledThroughId),
      );
      result.expired.push(day);
    }
  } finally {
    await releaseJobLease(db, ROLLUP_JOB, owner, {
      at: now(),
      result: { days: result.days.length, expired: result.expired.length },
    });
  }
  return result;
}

/** Takes the job's lease when it is free or has run out; true when this instance holds it now. */
export function claimLease(db: Kysely<Database>, owner: string, at: Date): Promise<boolean> {
  return claimJobLease(db, { name: ROLLUP_JOB, owner, now: at, leaseMs: LEASE_MS });
}

/** Counts a day's raw views above its `rolled_through_id` into its rollup; false when there were none. */
async function rollUpDay(
  db: Kysely<Database>,
  day: string,
  owner: string,
  now: () => Date,
): Promise<boolean> {
  const start = `${day}T00:00:00.000Z`;
  const end = new Date(Date.parse(start) + DAY_MS).toISOString();
  const rolled = await db
    .selectFrom("analyticsDailyTotals")
    .select("rolledThroughId")
    .where("day", "=", day)
    .executeTakeFirst();
  const covered = rolled ? Number(rolled.rolledThroughId) : 0;

  const tally = new DayTally();
  let after = covered;
  for (;;) {
    const page: RawView[] = await db
      .selectFrom("analyticsPageViews")
      .select([
        "id",
        "occurredAt",
        "path",
        "referrerHost",
        "referrerPath",
        "utmSource",
        "utmMedium",
        "utmCampaign",
        "paidClick",
        "device",
        "browser",
        "visitorId",
        "isNotFound",
      ])
      .where("occurredAt", ">=", start)
      .where("occurredAt", "<", end)
      .where("id", ">", after)
      .orderBy("id")
      .limit(READ_PAGE)
      .execute();
    for (const view of page) tally.add(view);
    if (page.length < READ_PAGE) break;
    after = tally.lastId;
    await yieldToRequests();
  }
  if (tally.views === 0) return false;

  const rolledAt = now().toISOString();
  await db.transaction().execute(async (trx) => {
    // Still ours? (On PostgreSQL this also locks the job's row until the commit.)
    await holdJobLease(trx, { name: ROLLUP_JOB, owner, now: now(), leaseMs: LEASE_MS });
    await trx
      .insertInto("analyticsDailyTotals")
      .values({
        day,
        views: tally.views,
        visitors: tally.visitors.size,
        notFoundViews: tally.notFoundViews,
        rolledThroughId: tally.lastId,
        rolledAt,
      })
      .onConflict((conflict) =>
        conflict.column("day").doUpdateSet((eb) => ({
          views: eb("analyticsDailyTotals.views", "+", eb.ref("excluded.views")),
          visitors: eb("analyticsDailyTotals.visitors", "+", eb.ref("excluded.visitors")),
          notFoundViews: eb("analyticsDailyTotals.notFoundViews", "+", eb.ref("excluded.notFoundViews")),
          rolledThroughId: eb.ref("excluded.rolledThroughId"),
          rolledAt: eb.ref("excluded.rolledAt"),
        })),
      )
      .execute();
    const rows = tally.counts(day);
    for (let index = 0; index < rows.length; index += INSERT_CHUNK) {
      await trx
        .insertInto("analyticsDailyCounts")
        .values(rows.slice(index, index + INSERT_CHUNK))
        .onConflict((conflict) =>
          conflict.columns(["dimension", "day", "value"]).doUpdateSet((eb) => ({
            views: eb("analyticsDailyCounts.views", "+", eb.ref("excluded.views")),
            visitors: eb("analyticsDailyCounts.visitors", "+", eb.ref("excluded.visitors")),
          })),
        )
        .execute();
    }
  });
  return true;
}

/** Deletes a day's raw views up to `throughId`, a thousand at a time, letting requests in between. */
async function deleteRaw(db: Kysely<Database>, start: string, end: string, throughId: number): Promise<void> {
  for (;;) {
    const result = await db
      .deleteFrom("analyticsPageViews")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("analyticsPageViews")
          .select("id")
          .where("occurredAt", ">=", start)
          .where("occurredAt", "<", end)
          .where("id", "<=", throughId)
          .limit(DELETE_CHUNK),
      )
      .executeTakeFirst();
    if (Number(result.numDeletedRows) < DELETE_CHUNK) return;
    await yieldToRequests();
  }
}

export type DailyTotal = { day: string; views: number; visitors: number; notFoundViews: number };

/**
 * The first day of `from`..`to` that has no rollup: it and the days after it are read from the raw
 * views, the days before from the rollups. Days are counted oldest first, so the counted days are
 * every day up to the latest one (a day without views has neither).
 */
export async function firstUncountedDay(db: Kysely<Database>, from: string, to: string): Promise<string> {
  const latest = await db
    .selectFrom("analyticsDailyTotals")
    .select((eb) => eb.fn.max("day").as("day"))
    .where("day", "<=", to)
    .executeTakeFirst();
  if (!latest?.day) return from;
  const next = utcDay(new Date(Date.parse(`${latest.day}T00:00:00.000Z`) + DAY_MS));
  return next > from ? next : from;
}

/**
 * Views, visitors and 404 views per UTC day from `from` to `to` (YYYY-MM-DD, both inclusive): counted
 * days from their totals, the days after them from the raw views (`rawFrom`, firstUncountedDay's by
 * default). What a report over any period reads.
 */
export async function readDailyTotals(
  db: Kysely<Database>,
  from: string,
  to: string,
  rawFrom?: string,
): Promise<DailyTotal[]> {
  const rawStart = rawFrom ?? (await firstUncountedDay(db, from, to));
  const end = new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS).toISOString();
  const [rolled, raw] = await Promise.all([
    db
      .selectFrom("analyticsDailyTotals")
      .select(["day", "views", "visitors", "notFoundViews"])
      .where("day", ">=", from)
      .where("day", "<", rawStart)
      .execute(),
    rawStart > to
      ? []
      : db
          .selectFrom("analyticsPageViews")
          .select([
            sql<string>`substr(occurred_at, 1, 10)`.as("day"),
            (eb) => eb.fn.countAll().as("views"),
            sql<number | string>`count(distinct visitor_id)`.as("visitors"),
            sql<number | string>`sum(is_not_found)`.as("notFoundViews"),
          ])
          .where("occurredAt", ">=", `${rawStart}T00:00:00.000Z`)
          .where("occurredAt", "<", end)
          .groupBy(sql`substr(occurred_at, 1, 10)`)
          .execute(),
  ]);
  const days = new Map<string, DailyTotal>();
  for (const row of [...rolled, ...raw]) {
    const known = days.get(row.day) ?? { day: row.day, views: 0, visitors: 0, notFoundViews: 0 };
    known.views += Number(row.views);
    known.visitors += Number(row.visitors);
    known.notFoundViews += Number(row.notFoundViews);
    days.set(row.day, known);
  }
  return [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

export type RollupJob = BackgroundJob;

/** The background job services.server.ts runs at start-up and every few minutes on every instance. */
export function createRollupJob({
  db,
  rawDays,
  logger = { error: () => {} },
}: {
  db: Kysely<Database>;
  rawDays: number;
  logger?: { error(message: string): void };
}): RollupJob {
  return createBackgroundJob({
    work: ({ owner, stopping }) => rollUpExpiredDays({ db, rawDays, owner, stopping }),
    onError: (message) => logger.error(`Analytics: rolling up page views failed (${message})`),
  });
}
