import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { addDays } from "./report-period.ts";

// Views and leads of a few pages since a day (issue 24: the content studio's list shows each post's
// last 30 days). The same definitions as the analytics report (analytics-report.server.ts), read
// for named paths only:
// - Views: the page's views, 404s aside. Every counted (rolled-up) day from its daily counts
//   (dimension "page"), the days after the latest counted one (today, usually) from the raw views.
// - Leads: the website's leads not held as spam and not sent with an API key, since the day, whose
//   visit entered the site on the page (lead_attributions.landing_page): the report's "leads" of a
//   page.
// NOTE: the rollups keep each day's 200 most viewed paths and fold the rest into "(other)"
// (rollup.server.ts): on a site with more pages than that, a rarely read post's counted days may
// show fewer views than it had. Today's views are always exact.

export type PageTraffic = { views: number; leads: number };

/** The most paths one call reads: a page of the studio's list at most. */
export const MAX_TRAFFIC_PATHS = 200;
const CHUNK = 100;

const startOf = (day: string) => `${day}T00:00:00.000Z`;
const num = (value: unknown) => Number(value ?? 0);

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/**
 * Each of `paths`' views and leads from UTC day `since` (YYYY-MM-DD) to now; a path nobody viewed
 * gets zeros. At most MAX_TRAFFIC_PATHS paths (more is a programming error).
 */
export async function pageTrafficSince(
  db: Kysely<Database>,
  paths: readonly string[],
  since: string,
): Promise<Map<string, PageTraffic>> {
  const unique = [...new Set(paths)];
  if (unique.length > MAX_TRAFFIC_PATHS)
    throw new RangeError(`pageTrafficSince reads at most ${MAX_TRAFFIC_PATHS} paths`);
  const traffic = new Map<string, PageTraffic>(unique.map((path) => [path, { views: 0, leads: 0 }]));
  if (unique.length === 0) return traffic;
  // The latest counted day: the days up to it are read from the rollups, the rest raw.
  const state = await db
    .selectFrom("analyticsDailyTotals")
    .select((eb) => eb.fn.max("day").as("latest"))
    .executeTakeFirst();
  const latest = state?.latest ?? null;
  const rawFrom = latest !== null && latest >= since ? addDays(latest, 1) : since;
  const add = (path: string, key: keyof PageTraffic, count: number) => {
    const entry = traffic.get(path);
    if (entry) entry[key] += count;
  };
  await Promise.all(
    chunks(unique, CHUNK).map(async (part) => {
      const [rolled, raw, leads] = await Promise.all([
        rawFrom > since
          ? db
              .selectFrom("analyticsDailyCounts")
              .select(["value", (eb) => eb.fn.sum<number | string>("views").as("views")])
              .where("dimension", "=", "page")
              .where("day", ">=", since)
              .where("day", "<", rawFrom)
              .where("value", "in", part)
              .groupBy("value")
              .execute()
          : [],
        db
          .selectFrom("analyticsPageViews")
          .select(["path", (eb) => eb.fn.countAll<number | string>().as("views")])
          .where("occurredAt", ">=", startOf(rawFrom))
          .where("isNotFound", "=", 0)
          .where("path", "in", part)
          .groupBy("path")
          .execute(),
        db
          .selectFrom("leads as l")
          .innerJoin("leadAttributions as a", "a.leadId", "l.id")
          .select(["a.landingPage as path", (eb) => eb.fn.countAll<number | string>().as("leads")])
          .where("l.isSpam", "=", 0)
          .where("l.apiKeyId", "is", null)
          .where("l.createdAt", ">=", startOf(since))
          .where("a.landingPage", "in", part)
          .groupBy("a.landingPage")
          .execute(),
      ]);
      for (const row of rolled) add(row.value, "views", num(row.views));
      for (const row of raw) add(row.path, "views", num(row.views));
      for (const row of leads) if (row.path !== null) add(row.path, "leads", num(row.leads));
    }),
  );
  return traffic;
}

/** The UTC day `days` days before `now`'s, counting today as one: 30 days to the 25th start on the 26th before. */
export function firstDayOfLast(days: number, now = new Date()): string {
  return addDays(now.toISOString().slice(0, 10), -(days - 1));
}
