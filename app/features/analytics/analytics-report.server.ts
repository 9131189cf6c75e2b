import { type Kysely, sql } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { CHANNELS } from "#app/lib/attribution.ts";
import { isWebsiteLeadSql, leadOriginSql } from "#app/lib/lead-origin.server.ts";
import { type LeadOrigin, leadOriginLabel } from "#app/lib/lead-origin.ts";
import type {
  AnalyticsReport,
  Granularity,
  Headline,
  MeetingCounts,
  MeetingsReport,
  OutsideSourceRow,
  SeriesPoint,
  WithLeads,
} from "./analytics-report.ts";
import { channelOf } from "./channel.ts";
import { FORM_PAGES, FORM_VISITORS_DIMENSION } from "./form-pages.ts";
import { addDays, daysIn, previousPeriod } from "./report-period.ts";
import { type DailyTotal, firstRawDay, readDailyTotals } from "./rollup.server.ts";

// The analytics report (issue 12): what /admin/analytics shows and GET /api/admin/analytics returns,
// for a period of UTC days. Every finished day is rolled up (analytics_daily_totals and _counts,
// rollup.server.ts, ADR 019); the days after the latest rolled-up one (today, normally) are read from
// the raw views (analytics_page_views). Every figure adds the two, each day counted once, from one
// source; the rolled-up part is cached per instance until the rollups change.
//
// Definitions (README, "Analytics"):
// - A visitor is a visitor of one UTC day: the id is a hash with the day's salt, which is destroyed.
//   The visitors of a period are the sum of each day's unique visitors (as Plausible and other
//   cookieless counters do); someone who comes back on three days counts three times.
// - A visit's entry page, referrer, channel, campaign, device and browser are those of the visitor's
//   first view of the day, as in attribution and the rollups.
// - Leads are the website's leads not held as spam (forms and the public API without a key), by
//   the day they arrived. Leads that came in otherwise (an API key, added by staff, imported: issue
//   32, lib/lead-origin.ts) are counted apart by source (`outsideLeads`, `outsideSources`; those of
//   API keys also as `apiLeads`) and in no rate, table, series or funnel.
// - Conversion rate: those leads divided by visitors, capped at 1 (a visitor who opted out of
//   counting can still send a lead), 0 when there were no visitors (the page shows "—").
// - Meetings (issue 34): the funnel's "booked a meeting" step is the period's website leads that have
//   a meeting, booked whenever (as "qualified" is their status today), not cancelled since: booked,
//   held or no-show; a meeting cancelled later does not count. The meetings tables and the median
//   count the meetings booked in the period (their created_at; a reschedule keeps it), not cancelled
//   since, whose lead is not held as spam, by their lead's channel and campaign (a lead erased since:
//   Unknown). The median time from request to meeting runs from the lead's created_at to the
//   meeting's, computed in SQL (one row back, on both databases).

export type ReportOptions = {
  from: string;
  to: string;
  /** ANALYTICS_RAW_DAYS: an hour-by-hour chart needs the raw views of its day. */
  rawDays: number;
  now?: Date;
  /** Rows per table at most. */
  limit?: number;
};

/** Leads per channel that were sent before their attribution settled (3 s). */
export const PENDING_CHANNEL = "Not linked yet";
const WON_STATUSES = ["qualified", "customer"];
const DAY_MS = 86_400_000;

const startOf = (day: string) => `${day}T00:00:00.000Z`;
const endOf = (day: string) => new Date(Date.parse(startOf(day)) + DAY_MS).toISOString();
const num = (value: unknown) => Number(value ?? 0);

/** A rate of two counts, 0..1, or null without a denominator. */
function rate(leads: number, visitors: number): number | null {
  return visitors > 0 ? Math.min(1, leads / visitors) : null;
}

export async function buildAnalyticsReport(
  db: Kysely<Database>,
  { from, to, rawDays, now = new Date(), limit = 100 }: ReportOptions,
): Promise<AnalyticsReport> {
  const granularity: Granularity = from === to && from >= firstRawDay(now, rawDays) ? "hour" : "day";
  const previous = previousPeriod({ from, to });
  // Counted days from the rollups, the days after them (today, usually) from the raw views.
  const state = await readRollupState(db, to);
  const rawFrom = state.latest !== null && state.latest >= from ? addDays(state.latest, 1) : from;
  const readsRaw = rawFrom <= to;
  const [
    rolledPart,
    visits,
    paths,
    leads,
    leadSeries,
    hourlyViews,
    previousHeadline,
    bookedMeeting,
    meetings,
  ] = await Promise.all([
    readRolledPart(db, from, rawFrom, state.version),
    readsRaw ? readRawVisits(db, rawFrom, to) : [],
    readsRaw ? readRawPaths(db, rawFrom, to) : [],
    readLeads(db, from, to),
    readLeadSeries(db, from, to, granularity),
    // An hour-by-hour day reads its raw views even once counted (they are kept ANALYTICS_RAW_DAYS).
    granularity === "hour" ? readHourlyViews(db, from) : Promise.resolve([]),
    readHeadline(db, previous.from, previous.to),
    readLeadsWithMeeting(db, from, to),
    readMeetings(db, from, to, limit),
  ]);
  // The raw days' totals from their visitors' groups (a visitor id lives one day).
  const rawTotals = new Map<string, DailyTotal>();
  for (const visit of visits) {
    const total = rawTotals.get(visit.day) ?? { day: visit.day, views: 0, visitors: 0, notFoundViews: 0 };
    total.views += num(visit.views);
    total.visitors += num(visit.visitors);
    total.notFoundViews += num(visit.notfound);
    rawTotals.set(visit.day, total);
  }
  const totals = [...rolledPart.totals, ...rawTotals.values()];
  const rolled = rolledPart.counts;

  const visitors = totals.reduce((sum, day) => sum + day.visitors, 0);
  const pageviews = totals.reduce((sum, day) => sum + day.views, 0);
  const notFoundViews = totals.reduce((sum, day) => sum + day.notFoundViews, 0);

  // Each dimension's values, from the rollups and the raw views alike.
  const tables = new Tables();
  for (const row of rolled) tables.add(row.dimension, row.value, num(row.visitors), num(row.views));
  let formPageVisitors = tables.get(FORM_VISITORS_DIMENSION).get("any")?.visitors ?? 0;
  for (const visit of visits) {
    const visitorsOf = num(visit.visitors);
    const viewsOf = num(visit.views);
    formPageVisitors += num(visit.formvisitors);
    tables.add("entry_page", visit.path, visitorsOf, viewsOf);
    if (visit.ref !== null) tables.add("referrer", visit.ref, visitorsOf, viewsOf);
    tables.add(
      "channel",
      channelOf({
        referrerHost: visit.ref,
        referrerPath: visit.ref === null ? null : "",
        utmSource: visit.source,
        utmMedium: visit.medium,
        utmCampaign: visit.campaign,
        paidClick: num(visit.paid) > 0,
      }),
      visitorsOf,
      viewsOf,
    );
    if (visit.campaign !== null) tables.add("campaign", visit.campaign, visitorsOf, viewsOf);
    tables.add("device", visit.device, visitorsOf, viewsOf);
    tables.add("browser", visit.browser, visitorsOf, viewsOf);
  }
  for (const row of paths)
    tables.add(num(row.notfound) ? "not_found" : "page", row.path, num(row.visitors), num(row.views));

  // Website leads by what their attribution says; the others by how they came in.
  let websiteLeads = 0;
  let apiLeads = 0;
  let qualified = 0;
  const outside = new Map<string, OutsideSourceRow>();
  const leadsBy = {
    landing: new Map<string, number>(),
    referrer: new Map<string, number>(),
    channel: new Map<string, number>(),
    campaign: new Map<string, number>(),
  };
  const bump = (map: Map<string, number>, key: string | null, count: number) => {
    if (key !== null) map.set(key, (map.get(key) ?? 0) + count);
  };
  for (const row of leads) {
    const count = num(row.leads);
    if (row.origin !== "website") {
      if (row.origin === "api_key") apiLeads += count;
      const source = leadOriginLabel(row.origin, row.source);
      const entry = outside.get(source) ?? { origin: row.origin, source, leads: 0 };
      entry.leads += count;
      outside.set(source, entry);
      continue;
    }
    websiteLeads += count;
    if (num(row.won)) qualified += count;
    bump(leadsBy.landing, row.landing, count);
    bump(leadsBy.referrer, row.ref, count);
    bump(leadsBy.channel, row.status === "pending" ? PENDING_CHANNEL : (row.channel ?? "Unknown"), count);
    bump(leadsBy.campaign, row.campaign, count);
  }

  const withLeads = <K extends string>(
    key: K,
    dimension: string,
    leadCounts: Map<string, number>,
    extraKeys: string[] = [],
  ) => {
    const entries = tables.get(dimension);
    const keys = new Set([...entries.keys(), ...leadCounts.keys(), ...extraKeys]);
    return top(
      [...keys].map((value) => {
        const entry = entries.get(value) ?? { visitors: 0, views: 0 };
        const leadsOf = leadCounts.get(value) ?? 0;
        return {
          [key]: value,
          visitors: entry.visitors,
          views: entry.views,
          leads: leadsOf,
          conversionRate: rate(leadsOf, entry.visitors),
        } as Record<K, string> & WithLeads;
      }),
      limit,
      (row) => row[key],
    );
  };
  const plain = <K extends string>(key: K, dimension: string) =>
    top(
      [...tables.get(dimension)].map(
        ([value, entry]) => ({ [key]: value, ...entry }) as Record<K, string> & typeof entry,
      ),
      limit,
      (row) => row[key],
    );

  return {
    from,
    to,
    days: daysIn(from, to),
    granularity,
    visitors,
    pageviews,
    leads: websiteLeads,
    apiLeads,
    outsideLeads: [...outside.values()].reduce((sum, row) => sum + row.leads, 0),
    conversionRate: rate(websiteLeads, visitors) ?? 0,
    outsideSources: [...outside.values()].sort((a, b) => b.leads - a.leads || (a.source < b.source ? -1 : 1)),
    notFoundViews,
    series: buildSeries(from, to, granularity, totals, leadSeries, hourlyViews),
    pages: withLeads("path", "page", new Map()).map((row) => ({
      ...row,
      // Leads that started on the page (its visitors' first view), over its visitors.
      leads: leadsBy.landing.get(row.path) ?? 0,
      conversionRate: rate(leadsBy.landing.get(row.path) ?? 0, row.visitors),
    })),
    entryPages: withLeads("path", "entry_page", leadsBy.landing),
    referrers: withLeads("host", "referrer", leadsBy.referrer),
    // Every channel, in the rules' order when equal, so a period without visits still shows them.
    channels: withLeads(
      "channel",
      "channel",
      leadsBy.channel,
      CHANNELS.filter((channel) => channel !== "Unknown"),
    ),
    campaigns: withLeads("campaign", "campaign", leadsBy.campaign),
    devices: plain("device", "device"),
    browsers: plain("browser", "browser"),
    notFound: top(
      [...tables.get("not_found")].map(([path, entry]) => ({
        path,
        views: entry.views,
        visitors: entry.visitors,
      })),
      limit,
      (row) => row.path,
      "views",
    ),
    funnel: { visitors, formPageVisitors, leads: websiteLeads, bookedMeeting, qualified },
    meetings,
    previous: previousHeadline,
  };
}

/** Values of each dimension with their visitors and views, summed over sources and days. */
class Tables {
  readonly #byDimension = new Map<string, Map<string, { visitors: number; views: number }>>();

  get(dimension: string): Map<string, { visitors: number; views: number }> {
    let values = this.#byDimension.get(dimension);
    if (!values) {
      values = new Map();
      this.#byDimension.set(dimension, values);
    }
    return values;
  }

  add(dimension: string, value: string, visitors: number, views: number): void {
    const values = this.get(dimension);
    const entry = values.get(value);
    if (entry) {
      entry.visitors += visitors;
      entry.views += views;
    } else values.set(value, { visitors, views });
  }
}

/** The first `limit` rows, most visitors (or views) first, then by leads, then by name. */
function top<T extends { visitors: number; views: number; leads?: number }>(
  rows: T[],
  limit: number,
  name: (row: T) => string,
  by: "visitors" | "views" = "visitors",
): T[] {
  return rows
    .sort(
      (a, b) =>
        b[by] - a[by] ||
        (b.leads ?? 0) - (a.leads ?? 0) ||
        (by === "views" ? b.visitors - a.visitors : b.views - a.views) ||
        (name(a) < name(b) ? -1 : 1),
    )
    .slice(0, limit);
}

function buildSeries(
  from: string,
  to: string,
  granularity: Granularity,
  totals: { day: string; views: number; visitors: number }[],
  leads: { bucket: string; leads: unknown }[],
  hourly: { bucket: string; views: unknown; visitors: unknown }[],
): SeriesPoint[] {
  const leadsAt = new Map(leads.map((row) => [row.bucket, num(row.leads)]));
  if (granularity === "hour") {
    const hours = new Map(hourly.map((row) => [row.bucket, row]));
    return Array.from({ length: 24 }, (_, hour) => {
      const bucket = `${from}T${String(hour).padStart(2, "0")}`;
      const row = hours.get(bucket);
      return {
        start: `${bucket}:00Z`,
        visitors: num(row?.visitors),
        pageviews: num(row?.views),
        leads: leadsAt.get(bucket) ?? 0,
      };
    });
  }
  const byDay = new Map(totals.map((day) => [day.day, day]));
  const points: SeriesPoint[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const total = byDay.get(day);
    points.push({
      start: day,
      visitors: total?.visitors ?? 0,
      pageviews: total?.views ?? 0,
      leads: leadsAt.get(day) ?? 0,
    });
  }
  return points;
}

// --- Reads ---------------------------------------------------------------------------------------

type VisitRow = {
  day: string;
  path: string;
  ref: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  paid: unknown;
  device: string;
  browser: string;
  visitors: unknown;
  views: unknown;
  notfound: unknown;
  formvisitors: unknown;
};

/**
 * The raw days' visitors, grouped by day and by what their first view of the day carried (entry
 * page, another site's host, UTM values, paid click, device, browser): with each group's views, 404
 * views and how many of them viewed a form page. One pass over the range (today, usually); the
 * groups are few (the combinations seen).
 */
async function readRawVisits(db: Kysely<Database>, from: string, to: string): Promise<VisitRow[]> {
  const forms = sql.join(FORM_PAGES.map((path) => sql`${path}`));
  const range = sql`occurred_at >= ${startOf(from)} and occurred_at < ${endOf(to)}`;
  const sawForm = sql`case when is_not_found = 0 and path in (${forms}) then 1 else 0 end`;
  // NOTE: a visitor id lives one day (its salt does), so grouping by it groups a visitor's day.
  // SQLite takes the other columns of a min() aggregate from the row holding the minimum (its
  // documented "bare column" rule); PostgreSQL says it with distinct on. Two views of one visitor
  // in the same millisecond may then pick either as the first (rollups take the lower id).
  // `+visitor_id` keeps SQLite on the time index: grouping through the visitor index would scan
  // every raw view of the retention period, not just the range's.
  const firstViews = isPostgres(db)
    ? sql`select distinct on (visitor_id) occurred_at as first_at, path, referrer_host, referrer_path,
          utm_source, utm_medium, utm_campaign, paid_click, device, browser,
          count(*) over visitor as views, sum(is_not_found) over visitor as notfound,
          sum(${sawForm}) over visitor as forms
        from analytics_page_views where ${range}
        window visitor as (partition by visitor_id)
        order by visitor_id, occurred_at, id`
    : sql`select min(occurred_at) as first_at, path, referrer_host, referrer_path, utm_source,
          utm_medium, utm_campaign, paid_click, device, browser,
          count(*) as views, sum(is_not_found) as notfound, sum(${sawForm}) as forms
        from analytics_page_views where ${range}
        group by +visitor_id`;
  const ref = sql`case when referrer_path is not null then referrer_host end`;
  const day = sql`substr(first_at, 1, 10)`;
  const { rows } = await sql<VisitRow>`select ${day} as day, path, ${ref} as ref, utm_source as source,
      utm_medium as medium, utm_campaign as campaign, paid_click as paid, device, browser,
      count(*) as visitors, sum(views) as views, sum(notfound) as notfound,
      sum(case when forms > 0 then 1 else 0 end) as formvisitors
    from (${firstViews}) as first_views
    group by ${day}, path, ${ref}, utm_source, utm_medium, utm_campaign, paid_click, device, browser`.execute(
    db,
  );
  return rows;
}

/** The raw days' views and visitors per path, 404s apart. */
async function readRawPaths(db: Kysely<Database>, from: string, to: string) {
  return db
    .selectFrom("analyticsPageViews")
    .select([
      "path",
      "isNotFound as notfound",
      (eb) => eb.fn.countAll().as("views"),
      sql<number | string>`count(distinct visitor_id)`.as("visitors"),
    ])
    .where("occurredAt", ">=", startOf(from))
    .where("occurredAt", "<", endOf(to))
    .groupBy(["path", "isNotFound"])
    .execute();
}

/**
 * The latest counted day up to `to`, and a version of the rollups that changes whenever the rollup
 * job commits (a day counted or topped up): one read of the totals, a row a day.
 */
async function readRollupState(
  db: Kysely<Database>,
  to: string,
): Promise<{ latest: string | null; version: string }> {
  const row = await db
    .selectFrom("analyticsDailyTotals")
    .select([
      sql<string | null>`max(case when day <= ${to} then day end)`.as("latest"),
      (eb) => eb.fn.max("rolledAt").as("rolledAt"),
      (eb) => eb.fn.countAll().as("days"),
      (eb) => eb.fn.sum<number | string>("views").as("views"),
    ])
    .executeTakeFirst();
  return {
    latest: row?.latest ?? null,
    version: `${row?.days ?? 0}/${row?.rolledAt ?? ""}/${row?.views ?? 0}`,
  };
}

type RolledPart = {
  totals: DailyTotal[];
  counts: { dimension: string; value: string; views: unknown; visitors: unknown }[];
};

/**
 * The counted days' figures change only when the rollup job commits (once a day after midnight, and
 * when late views are topped up), so each instance keeps the last few periods' in memory, checked
 * against the rollups' version on every report: a 12-month report then reads only today's raw
 * views and the leads. Bounded: CACHED_PERIODS per database handle.
 */
const CACHED_PERIODS = 16;
const rolledCache = new WeakMap<Kysely<Database>, Map<string, { version: string; part: RolledPart }>>();

async function readRolledPart(
  db: Kysely<Database>,
  from: string,
  before: string,
  version: string,
): Promise<RolledPart> {
  if (before <= from) return { totals: [], counts: [] };
  let cache = rolledCache.get(db);
  if (!cache) {
    cache = new Map();
    rolledCache.set(db, cache);
  }
  const key = `${from}/${before}`;
  const cached = cache.get(key);
  if (cached?.version === version) return cached.part;
  const [totals, counts] = await Promise.all([
    db
      .selectFrom("analyticsDailyTotals")
      .select(["day", "views", "visitors", "notFoundViews"])
      .where("day", ">=", from)
      .where("day", "<", before)
      .orderBy("day")
      .execute(),
    readRolledCounts(db, from, before),
  ]);
  const part: RolledPart = {
    totals: totals.map((row) => ({
      day: row.day,
      views: num(row.views),
      visitors: num(row.visitors),
      notFoundViews: num(row.notFoundViews),
    })),
    counts,
  };
  cache.delete(key);
  cache.set(key, { version, part });
  // The oldest entry goes first (a Map iterates in insertion order).
  if (cache.size > CACHED_PERIODS) cache.delete(cache.keys().next().value as string);
  return part;
}

/**
 * Values of a dimension read from the rollups at most: the report shows 100, and a scanner asking for
 * thousands of made-up paths (each a 404 row a day) must not make a year's report carry them all.
 */
const ROLLED_VALUES = 1000;

/** The rolled-up days' values of every dimension the report shows, summed over the days, the most visited first. */
async function readRolledCounts(db: Kysely<Database>, from: string, before: string) {
  const dimensions = sql.join(
    [
      "page",
      "entry_page",
      "not_found",
      "referrer",
      "channel",
      "campaign",
      "device",
      "browser",
      FORM_VISITORS_DIMENSION,
    ].map((dimension) => sql`${dimension}`),
  );
  // The dimensions named, so the primary key (dimension, day, value) gives each a range.
  const { rows } = await sql<{ dimension: string; value: string; views: unknown; visitors: unknown }>`
    select dimension, value, views, visitors from (
      select dimension, value, sum(views) as views, sum(visitors) as visitors,
        row_number() over (partition by dimension order by sum(visitors) desc, sum(views) desc, value) as place
      from analytics_daily_counts
      where dimension in (${dimensions}) and day >= ${from} and day < ${before}
      group by dimension, value
    ) as ranked
    where place <= ${sql.lit(ROLLED_VALUES)}`.execute(db);
  return rows;
}

type LeadGroup = {
  origin: LeadOrigin;
  /** The lead's `source` for a lead from outside the website (an API key's name, `staff:<slug>`). */
  source: string;
  landing: string | null;
  ref: string | null;
  channel: string | null;
  campaign: string | null;
  status: string | null;
  won: unknown;
  leads: unknown;
};

/**
 * The period's leads not held as spam: the website's grouped by their attribution and status, the
 * others by how they came in and their source (an API key's name, `staff:<slug>`).
 */
async function readLeads(db: Kysely<Database>, from: string, to: string): Promise<LeadGroup[]> {
  const won = sql.join(WON_STATUSES.map((status) => sql`${status}`));
  const origin = leadOriginSql("l", { scan: true });
  const { rows } = await sql<LeadGroup>`select ${origin} as origin,
      case when ${isWebsiteLeadSql("l")} then '' else l.source end as source,
      a.landing_page as landing,
      case when a.referrer_path is not null then a.referrer_host end as ref,
      a.channel as channel, a.utm_campaign as campaign, a.status as status,
      case when l.status in (${won}) then 1 else 0 end as won,
      count(*) as leads
    from leads l left join lead_attributions a on a.lead_id = l.id
    where l.is_spam = 0 and l.created_at >= ${startOf(from)} and l.created_at < ${endOf(to)}
    group by 1, 2, 3, 4, 5, 6, 7, 8`.execute(db);
  return rows;
}

/** Website leads (not spam, through the site's forms or their API call) per day or per hour. */
async function readLeadSeries(db: Kysely<Database>, from: string, to: string, granularity: Granularity) {
  const bucket = sql<string>`substr(l.created_at, 1, ${sql.lit(granularity === "hour" ? 13 : 10)})`;
  const { rows } = await sql<{ bucket: string; leads: unknown }>`select ${bucket} as bucket, count(*) as leads
    from leads l
    where l.is_spam = 0 and ${isWebsiteLeadSql("l")}
      and l.created_at >= ${startOf(from)} and l.created_at < ${endOf(to)}
    group by ${bucket}`.execute(db);
  return rows;
}

/** The period's website leads (not spam) with a meeting not cancelled, booked whenever: the funnel's step. */
async function readLeadsWithMeeting(db: Kysely<Database>, from: string, to: string): Promise<number> {
  const { rows } = await sql<{ leads: unknown }>`select count(*) as leads from leads l
    where l.is_spam = 0 and ${isWebsiteLeadSql("l")}
      and l.created_at >= ${startOf(from)} and l.created_at < ${endOf(to)}
      and exists (select 1 from meetings m where m.lead_id = l.id and m.status <> 'cancelled')`.execute(db);
  return num(rows[0]?.leads);
}

type MeetingGroup = {
  channel: string | null;
  linking: string | null;
  campaign: string | null;
  status: string;
  meetings: unknown;
};

/**
 * Meetings booked in the period (created then), not cancelled since, whose lead is not held as spam:
 * counted by their lead's channel and campaign, and the median time from the lead to the booking.
 * There is no index on `meetings.created_at`: both reads scan the table, which grows by at most each
 * host's daily maximum a day (thousands of rows a year, not millions); each answers a handful of rows.
 */
async function readMeetings(
  db: Kysely<Database>,
  from: string,
  to: string,
  limit: number,
): Promise<MeetingsReport> {
  const counted = sql`m.created_at >= ${startOf(from)} and m.created_at < ${endOf(to)}
    and m.status <> 'cancelled'`;
  // Seconds from the lead to the meeting: the columns are ISO 8601 UTC text on both databases.
  const seconds = isPostgres(db)
    ? sql`extract(epoch from (cast(m.created_at as timestamptz) - cast(l.created_at as timestamptz)))`
    : sql`(julianday(m.created_at) - julianday(l.created_at)) * 86400`;
  const [{ rows: groups }, { rows: medians }] = await Promise.all([
    sql<MeetingGroup>`select a.channel as channel, a.status as linking, a.utm_campaign as campaign,
        m.status as status, count(*) as meetings
      from meetings m
        left join leads l on l.id = m.lead_id
        left join lead_attributions a on a.lead_id = l.id
      where ${counted} and (l.id is null or l.is_spam = 0)
      group by a.channel, a.status, a.utm_campaign, m.status`.execute(db),
    // The median in SQL, the same on both: the middle row (or the two middle rows' mean) by rank.
    sql<{ median: unknown; meetings: unknown }>`select avg(seconds) as median, max(total) as meetings
      from (
        select seconds, row_number() over (order by seconds) as place, count(*) over () as total
        from (select ${seconds} as seconds from meetings m join leads l on l.id = m.lead_id
          where ${counted} and l.is_spam = 0) as times
      ) as ranked
      where place in ((total + 1) / 2, (total + 2) / 2)`.execute(db),
  ]);
  const totals: MeetingCounts = { meetings: 0, held: 0, noShow: 0 };
  const byChannel = new Map<string, MeetingCounts>();
  const byCampaign = new Map<string, MeetingCounts>();
  const add = (entry: MeetingCounts, status: string, count: number) => {
    entry.meetings += count;
    if (status === "held") entry.held += count;
    if (status === "no_show") entry.noShow += count;
    return entry;
  };
  const entryOf = (map: Map<string, MeetingCounts>, key: string) => {
    const entry = map.get(key) ?? { meetings: 0, held: 0, noShow: 0 };
    map.set(key, entry);
    return entry;
  };
  for (const group of groups) {
    const count = num(group.meetings);
    add(totals, group.status, count);
    const channel = group.linking === "pending" ? PENDING_CHANNEL : (group.channel ?? "Unknown");
    add(entryOf(byChannel, channel), group.status, count);
    if (group.campaign !== null) add(entryOf(byCampaign, group.campaign), group.status, count);
  }
  const rows = <K extends string>(key: K, map: Map<string, MeetingCounts>) =>
    [...map]
      .map(([value, counts]) => ({ [key]: value, ...counts }) as Record<K, string> & MeetingCounts)
      .sort((a, b) => b.meetings - a.meetings || b.held - a.held || (a[key] < b[key] ? -1 : 1))
      .slice(0, limit);
  const median = medians[0];
  const over = num(median?.meetings);
  return {
    ...totals,
    byChannel: rows("channel", byChannel),
    byCampaign: rows("campaign", byCampaign),
    requestToMeeting:
      over > 0 ? { medianSeconds: Math.max(0, Math.round(num(median?.median))), meetings: over } : null,
  };
}

/** One raw day's views and distinct visitors per hour. */
async function readHourlyViews(db: Kysely<Database>, day: string) {
  const bucket = sql<string>`substr(occurred_at, 1, 13)`;
  return db
    .selectFrom("analyticsPageViews")
    .select([
      bucket.as("bucket"),
      (eb) => eb.fn.countAll().as("views"),
      sql<number | string>`count(distinct visitor_id)`.as("visitors"),
    ])
    .where("occurredAt", ">=", startOf(day))
    .where("occurredAt", "<", endOf(day))
    .groupBy(bucket)
    .execute();
}

/** The headline figures of a period (the comparison). */
export async function readHeadline(db: Kysely<Database>, from: string, to: string): Promise<Headline> {
  const origin = leadOriginSql("l", { scan: true });
  const [totals, { rows: leads }] = await Promise.all([
    readDailyTotals(db, from, to),
    sql<{ origin: LeadOrigin; leads: unknown }>`select origin, count(*) as leads
      from (select ${origin} as origin from leads l
        where l.is_spam = 0 and l.created_at >= ${startOf(from)} and l.created_at < ${endOf(to)}) as period_leads
      group by origin`.execute(db),
  ]);
  const visitors = totals.reduce((sum, day) => sum + day.visitors, 0);
  const of = (wanted: LeadOrigin) => num(leads.find((row) => row.origin === wanted)?.leads);
  const websiteLeads = of("website");
  return {
    from,
    to,
    visitors,
    pageviews: totals.reduce((sum, day) => sum + day.views, 0),
    leads: websiteLeads,
    apiLeads: of("api_key"),
    outsideLeads: of("api_key") + of("added_by_staff") + of("imported"),
    conversionRate: rate(websiteLeads, visitors) ?? 0,
  };
}
