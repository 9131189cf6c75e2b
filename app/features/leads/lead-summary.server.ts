import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { createRefreshingCache } from "#app/lib/refreshing-cache.ts";
import { LEAD_STATUSES, type LeadStatus } from "./lead-repository.server.ts";

// The dashboard's summary strip: new leads today, in 7 and in 30 days; leads by status; the
// median time from submission to the first status change ("speed to lead") over the last 30 days.
// Spam held out of the list is counted apart. Days are UTC, like the date filter.

export type LeadSummary = {
  newToday: number;
  new7Days: number;
  new30Days: number;
  /** The pipeline: every genuine lead by status, anonymised ones included (retention keeps the counts). */
  byStatus: Record<LeadStatus, number>;
  /**
   * What the list shows under each status view: the same without anonymised leads, which leave the
   * list (issue 13). The views' tabs and the shell's "new" count use these, so a tab's number is its
   * list's total.
   */
  listedByStatus: Record<LeadStatus, number>;
  heldSpam: number;
  speedToLead: {
    /** Median milliseconds from submission to first status change, or null with none yet. */
    medianMs: number | null;
    /** Leads of the last 30 days that have had a first status change. */
    responded: number;
    /** Leads of the last 30 days still waiting for one. */
    waiting: number;
  };
  computedAt: string;
};

const DAY = 86_400_000;

export async function computeLeadSummary(db: Kysely<Database>, now = new Date()): Promise<LeadSummary> {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  const since7 = new Date(now.getTime() - 7 * DAY).toISOString();
  const since30 = new Date(now.getTime() - 30 * DAY).toISOString();
  const recent = db.selectFrom("leads").where("isSpam", "=", 0).where("createdAt", ">=", since30);
  const [counts, statuses, held, responded] = await Promise.all([
    recent
      .select((eb) => [
        eb.fn.countAll().as("new30"),
        eb.fn.sum(eb.case().when("createdAt", ">=", since7).then(1).else(0).end()).as("new7"),
        eb.fn.sum(eb.case().when("createdAt", ">=", today).then(1).else(0).end()).as("newToday"),
        eb.fn.sum(eb.case().when("firstResponseMs", "is", null).then(1).else(0).end()).as("waiting"),
      ])
      .executeTakeFirstOrThrow(),
    // Every lead by status, and the held spam: from the trigger-kept counts (migration 013), a
    // few rows instead of every lead.
    db
      .selectFrom("leadCounts")
      .select(["status", "anonymised", (eb) => eb.fn.sum("count").as("count")])
      .where("isSpam", "=", 0)
      .groupBy(["status", "anonymised"])
      .execute(),
    db
      .selectFrom("leadCounts")
      .select((eb) => eb.fn.sum("count").as("count"))
      .where("isSpam", "=", 1)
      .executeTakeFirstOrThrow(),
    recent
      .select((eb) => eb.fn.countAll().as("count"))
      .where("firstResponseMs", "is not", null)
      .executeTakeFirstOrThrow(),
  ]);
  const respondedCount = Number(responded.count);
  let medianMs: number | null = null;
  if (respondedCount > 0) {
    // The middle one (or the two middle ones) in order; the same SQL on both databases.
    const middle = await recent
      .select("firstResponseMs")
      .where("firstResponseMs", "is not", null)
      .orderBy("firstResponseMs")
      .limit(respondedCount % 2 === 0 ? 2 : 1)
      .offset(Math.floor((respondedCount - 1) / 2))
      .execute();
    const values = middle.map((row) => Number(row.firstResponseMs));
    medianMs = Math.round(values.reduce((sum, value) => sum + value, 0) / values.length);
  }
  const zeroes = () =>
    Object.fromEntries(LEAD_STATUSES.map((status) => [status, 0])) as Record<LeadStatus, number>;
  const byStatus = zeroes();
  const listedByStatus = zeroes();
  for (const row of statuses) {
    if (!(row.status in byStatus)) continue;
    const status = row.status as LeadStatus;
    byStatus[status] += Number(row.count);
    if (Number(row.anonymised) === 0) listedByStatus[status] += Number(row.count);
  }
  return {
    newToday: Number(counts.newToday ?? 0),
    new7Days: Number(counts.new7 ?? 0),
    new30Days: Number(counts.new30),
    byStatus,
    listedByStatus,
    heldSpam: Number(held.count ?? 0),
    speedToLead: { medianMs, responded: respondedCount, waiting: Number(counts.waiting ?? 0) },
    computedAt: now.toISOString(),
  };
}

/**
 * The summary, counted at most once per `ttlMs` per app instance and never shown older: the
 * dashboard shows it on every load and it counts every lead, so a few seconds' staleness buys a
 * cheap page (issue 10 allows 5 s). The count behind it starts 1.5 s before that, so under steady
 * use no load waits for one. Staff changes on this instance invalidate it at once; new submissions
 * do not, or a busy form (hundreds a second) would make every load count every lead again.
 */
export function createLeadSummaryCache(db: Kysely<Database>, ttlMs = 5000) {
  return createRefreshingCache((now) => computeLeadSummary(db, new Date(now)), {
    ttlMs,
    refreshMs: Math.max(0, ttlMs - 1500),
  });
}
