import type { Insertable } from "kysely";
import { beforeEach, expect, it } from "vitest";
import type { AnalyticsPageViewsTable } from "#app/db/schema.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { channelOf } from "./channel.ts";
import {
  claimLease,
  LEASE_MS,
  MAX_VALUES_PER_DAY,
  OTHER_VALUE,
  readDailyTotals,
  rollUpExpiredDays,
} from "./rollup.server.ts";

// Rollups and retention (issue 12) on both databases: every day that is over is rolled up into daily
// counts equal to what its raw views said, once, by one instance; the raw views of days older than
// ANALYTICS_RAW_DAYS are then deleted, the others kept.

const NOW = new Date("2026-11-25T12:00:00.000Z");
const RAW_DAYS = 30;
// 2026-10-26 is the first day kept raw: 2026-10-20 to 2026-10-25 lose their raw views. Every day but
// today (2026-11-25) is rolled up.
const DAYS = ["2026-10-20", "2026-10-21", "2026-10-23", "2026-10-25", "2026-10-26", "2026-11-25"];
const OLD_DAYS = DAYS.slice(0, 4);
const PAST_DAYS = DAYS.slice(0, 5);
const PATHS = ["/", "/features", "/demo", "/blog/why-contracts", "/invest"];
const SOURCES: Partial<Insertable<AnalyticsPageViewsTable>>[] = [
  {},
  { referrerHost: "www.google.com", referrerPath: "/" },
  { referrerHost: "news.ycombinator.com", referrerPath: "/item" },
  { utmSource: "newsletter", utmMedium: "email", utmCampaign: "launch" },
  { utmSource: "linkedin", utmMedium: "social", utmCampaign: "winter" },
  { paidClick: 1, utmSource: "google", utmMedium: "cpc", utmCampaign: "brand" },
];

/** A small deterministic generator: the same views on both databases, every run. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

function generateViews(): Insertable<AnalyticsPageViewsTable>[] {
  const next = random(42);
  const views: Insertable<AnalyticsPageViewsTable>[] = [];
  for (const day of DAYS) {
    for (let visitor = 0; visitor < 40; visitor++) {
      const visitorId = `${day}-visitor-${visitor}`.padEnd(32, "x");
      const source = SOURCES[next(SOURCES.length)] ?? {};
      const device = ["desktop", "mobile", "tablet"][next(3)] as "desktop" | "mobile" | "tablet";
      const browser = ["Chrome", "Safari", "Firefox"][next(3)] ?? "Chrome";
      const count = 1 + next(5);
      for (let view = 0; view < count; view++) {
        const notFound = next(10) === 0;
        views.push({
          occurredAt: `${day}T${String(next(24)).padStart(2, "0")}:${String(next(60)).padStart(2, "0")}:00.000Z`,
          path: notFound ? `/missing-${next(3)}` : (PATHS[next(PATHS.length)] ?? "/"),
          referrerHost: null,
          referrerPath: null,
          utmSource: null,
          utmMedium: null,
          utmCampaign: null,
          utmTerm: null,
          utmContent: null,
          paidClick: 0,
          device,
          browser,
          visitorId,
          isNotFound: notFound ? 1 : 0,
          // A visitor's UTM values and referrer travel with its views (the first one decides).
          ...source,
        });
      }
    }
  }
  return views;
}

type Count = { dimension: string; day: string; value: string; views: number; visitors: number };

/** What the raw views say, computed plainly from all of them. */
function expectedCounts(rows: (Insertable<AnalyticsPageViewsTable> & { id: number })[]): Count[] {
  const counts = new Map<string, { views: number; visitors: Set<string> }>();
  const add = (
    dimension: string,
    day: string,
    value: string | null | undefined,
    visitor: string,
    views = 1,
  ) => {
    if (value === null || value === undefined) return;
    const key = JSON.stringify([dimension, day, value]);
    const entry = counts.get(key) ?? { views: 0, visitors: new Set<string>() };
    entry.views += views;
    entry.visitors.add(visitor);
    counts.set(key, entry);
  };
  const sorted = [...rows].sort((a, b) =>
    a.occurredAt === b.occurredAt ? a.id - b.id : a.occurredAt < b.occurredAt ? -1 : 1,
  );
  const firsts = new Map<string, (typeof sorted)[number]>();
  const viewsOf = new Map<string, number>();
  const sawForm = new Set<string>();
  for (const row of sorted) {
    if (!row.isNotFound && ["/", "/demo", "/invest"].includes(row.path)) sawForm.add(row.visitorId);
    const day = row.occurredAt.slice(0, 10);
    add(row.isNotFound ? "not_found" : "page", day, row.path, row.visitorId);
    if (!firsts.has(row.visitorId)) firsts.set(row.visitorId, row);
    viewsOf.set(row.visitorId, (viewsOf.get(row.visitorId) ?? 0) + 1);
  }
  for (const [visitor, first] of firsts) {
    const day = first.occurredAt.slice(0, 10);
    const views = viewsOf.get(visitor) ?? 0;
    add("entry_page", day, first.path, visitor, views);
    add("referrer", day, first.referrerPath ? first.referrerHost : null, visitor, views);
    add(
      "channel",
      day,
      channelOf({
        utmSource: first.utmSource ?? null,
        utmMedium: first.utmMedium ?? null,
        utmCampaign: first.utmCampaign ?? null,
        paidClick: Boolean(first.paidClick),
        referrerHost: first.referrerHost ?? null,
        referrerPath: first.referrerPath ?? null,
      }),
      visitor,
      views,
    );
    add("campaign", day, first.utmCampaign, visitor, views);
    add("source", day, first.utmSource, visitor, views);
    add("medium", day, first.utmMedium, visitor, views);
    add("device", day, first.device, visitor, views);
    add("browser", day, first.browser, visitor, views);
    if (sawForm.has(visitor)) add("form_visitors", day, "any", visitor, views);
  }
  return [...counts]
    .map(([key, entry]) => {
      const [dimension = "", day = "", value = ""] = JSON.parse(key) as string[];
      return { dimension, day, value, views: entry.views, visitors: entry.visitors.size };
    })
    .sort(byKey);
}

const byKey = (a: Count, b: Count) =>
  `${a.dimension}\u0000${a.day}\u0000${a.value}` < `${b.dimension}\u0000${b.day}\u0000${b.value}` ? -1 : 1;

describeEachDatabase("analytics rollups", (use) => {
  const db = () => use().db;
  let raw: (Insertable<AnalyticsPageViewsTable> & { id: number })[] = [];

  const storedCounts = async (): Promise<Count[]> =>
    (await db().selectFrom("analyticsDailyCounts").selectAll().execute())
      .map((row) => ({ ...row, views: Number(row.views), visitors: Number(row.visitors) }))
      .sort(byKey);
  const rawDays = async () =>
    [
      ...new Set(
        (await db().selectFrom("analyticsPageViews").select("occurredAt").execute()).map((row) =>
          row.occurredAt.slice(0, 10),
        ),
      ),
    ].sort();

  beforeEach(async () => {
    for (const table of [
      "analyticsPageViews",
      "analyticsDailyTotals",
      "analyticsDailyCounts",
      "jobLeases",
    ] as const)
      await db().deleteFrom(table).execute();
    const views = generateViews();
    for (let index = 0; index < views.length; index += 100)
      await db()
        .insertInto("analyticsPageViews")
        .values(views.slice(index, index + 100))
        .execute();
    raw = (await db().selectFrom("analyticsPageViews").selectAll().execute()).map((row) => ({
      ...row,
      id: Number(row.id),
    }));
  });

  it("rolls up every past day into counts equal to its raw views, then deletes those past retention", async () => {
    const pastRaw = raw.filter((row) => PAST_DAYS.includes(row.occurredAt.slice(0, 10)));
    const before = await readDailyTotals(db(), "2026-10-01", "2026-11-30");
    expect(before.map((day) => day.day)).toEqual(DAYS);

    const result = await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    expect(result).toEqual({ days: PAST_DAYS, expired: OLD_DAYS, busy: false });
    expect(await storedCounts()).toEqual(expectedCounts(pastRaw));
    // Every visitor once per visitor-level dimension, and every view once.
    const counts = await storedCounts();
    for (const day of PAST_DAYS) {
      const ofDay = pastRaw.filter((row) => row.occurredAt.startsWith(day));
      const visitors = new Set(ofDay.map((row) => row.visitorId)).size;
      const sum = (dimension: string, field: "views" | "visitors") =>
        counts
          .filter((row) => row.day === day && row.dimension === dimension)
          .reduce((total, row) => total + row[field], 0);
      expect(sum("channel", "visitors")).toBe(visitors);
      expect(sum("device", "views")).toBe(ofDay.length);
      expect(sum("page", "views") + sum("not_found", "views")).toBe(ofDay.length);
    }
    // The old days' raw views are gone; the days still within retention are untouched.
    expect(await rawDays()).toEqual(DAYS.slice(4));
    expect(await db().selectFrom("analyticsPageViews").selectAll().execute()).toHaveLength(
      raw.filter((row) => row.occurredAt >= "2026-10-26").length,
    );
    // A report over the whole period reads the same before and after.
    expect(await readDailyTotals(db(), "2026-10-01", "2026-11-30")).toEqual(before);
  });

  it("is idempotent: a second run finds nothing and changes nothing", async () => {
    await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    const once = await storedCounts();
    await expect(rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW })).resolves.toEqual({
      days: [],
      expired: [],
      busy: false,
    });
    expect(await storedCounts()).toEqual(once);
  });

  it("runs on one instance at a time: two at once count every view once", async () => {
    const pastRaw = raw.filter((row) => PAST_DAYS.includes(row.occurredAt.slice(0, 10)));
    const results = await Promise.all([
      rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW, owner: "instance-a" }),
      rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW, owner: "instance-b" }),
    ]);
    expect(results.flatMap((result) => result.days).sort()).toEqual(PAST_DAYS);
    expect(await storedCounts()).toEqual(expectedCounts(pastRaw));
  });

  it("waits for another instance's lease, and takes it over once it has run out", async () => {
    expect(await claimLease(db(), "instance-that-died", NOW)).toBe(true);
    await expect(rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW })).resolves.toEqual({
      days: [],
      expired: [],
      busy: true,
    });
    const later = new Date(NOW.getTime() + LEASE_MS + 1000);
    const result = await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => later });
    expect(result.days).toEqual(PAST_DAYS);
  });

  it("deletes without counting again the views a run had counted before it stopped", async () => {
    const pastRaw = raw.filter((row) => PAST_DAYS.includes(row.occurredAt.slice(0, 10)));
    const oldRaw = raw.filter((row) => OLD_DAYS.includes(row.occurredAt.slice(0, 10)));
    await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    // As if the run had died between its commit and its deletes: the counted rows are back.
    for (let index = 0; index < oldRaw.length; index += 100)
      await db()
        .insertInto("analyticsPageViews")
        .values(oldRaw.slice(index, index + 100))
        .execute();
    const result = await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    expect(result).toEqual({ days: [], expired: OLD_DAYS, busy: false });
    expect(await storedCounts()).toEqual(expectedCounts(pastRaw));
    expect(await rawDays()).toEqual(DAYS.slice(4));
  });

  it("keeps a day's most viewed values of what visitors choose and folds the rest into one row", async () => {
    // A scanner inventing a path and a campaign per request: each would be a row kept for ever.
    const day = "2026-10-26";
    const template = { ...raw.find((row) => row.occurredAt.startsWith(day)) };
    delete (template as { id?: number }).id;
    const invented = Array.from({ length: MAX_VALUES_PER_DAY + 50 }, (_, index) => ({
      ...template,
      path: `/wp-scan-${index}.php`,
      isNotFound: 1,
      utmCampaign: `scan-${index}`,
      visitorId: `scanner-${index}`.padEnd(32, "x"),
      occurredAt: `${day}T12:00:00.000Z`,
    })) as Insertable<AnalyticsPageViewsTable>[];
    for (let index = 0; index < invented.length; index += 100)
      await db()
        .insertInto("analyticsPageViews")
        .values(invented.slice(index, index + 100))
        .execute();
    const ofDay = [...raw.filter((row) => row.occurredAt.startsWith(day)), ...invented];

    await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    const counts = (await storedCounts()).filter((row) => row.day === day);
    for (const dimension of ["not_found", "campaign"]) {
      const rows = counts.filter((row) => row.dimension === dimension);
      expect(rows.length, dimension).toBe(MAX_VALUES_PER_DAY + 1);
      expect(
        rows.filter((row) => row.value === OTHER_VALUE),
        dimension,
      ).toHaveLength(1);
    }
    // Nothing is lost: every view is still counted, in its value or in the folded row.
    const sum = (dimension: string) =>
      counts.filter((row) => row.dimension === dimension).reduce((total, row) => total + row.views, 0);
    expect(sum("page") + sum("not_found")).toBe(ofDay.length);
    expect(sum("device")).toBe(ofDay.length);
    // Values under the cap are untouched: the day's real pages are all there.
    const realPages = new Set(ofDay.filter((row) => !row.isNotFound).map((row) => row.path));
    expect(new Set(counts.filter((row) => row.dimension === "page").map((row) => row.value))).toEqual(
      realPages,
    );
  });

  it("adds views that arrive after their day was rolled up, and reads them from then on", async () => {
    await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    // A page view, not a 404: the expected totals below add a view and a visitor, nothing else (the
    // raw rows come back in no fixed order on PostgreSQL, and a 404 picked first added a 404 view).
    const late = { ...raw.find((row) => row.occurredAt.startsWith("2026-10-26") && !row.isNotFound) };
    delete (late as { id?: number }).id;
    await db()
      .insertInto("analyticsPageViews")
      .values({
        ...late,
        visitorId: "late-visitor".padEnd(32, "x"),
        occurredAt: "2026-10-26T23:59:59.000Z",
      } as Insertable<AnalyticsPageViewsTable>)
      .execute();
    const before = (await readDailyTotals(db(), "2026-10-26", "2026-10-26"))[0];
    const result = await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    expect(result).toEqual({ days: ["2026-10-26"], expired: [], busy: false });
    const after = (await readDailyTotals(db(), "2026-10-26", "2026-10-26"))[0];
    expect(after).toEqual({
      ...before,
      views: (before?.views ?? 0) + 1,
      visitors: (before?.visitors ?? 0) + 1,
    });
  });

  it("counts a day only once it is over, and reads today from the raw views", async () => {
    const justAfterMidnight = new Date("2026-11-26T00:01:00.000Z");
    const early = await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => justAfterMidnight });
    // 2026-11-25 has just ended: its views may still be in an instance's buffer.
    expect(early.days).not.toContain("2026-11-25");
    const later = new Date("2026-11-26T00:10:00.000Z");
    expect((await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => later })).days).toEqual([
      "2026-11-25",
    ]);
    const today = raw.filter((row) => row.occurredAt.startsWith("2026-11-25"));
    expect(await readDailyTotals(db(), "2026-11-25", "2026-11-25")).toEqual([
      {
        day: "2026-11-25",
        views: today.length,
        visitors: new Set(today.map((row) => row.visitorId)).size,
        notFoundViews: today.filter((row) => row.isNotFound).length,
      },
    ]);
  });
});
