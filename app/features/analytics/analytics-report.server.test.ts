import type { Insertable } from "kysely";
import { beforeEach, expect, it } from "vitest";
import type { AnalyticsPageViewsTable, LeadAttributionsTable } from "#app/db/schema.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { buildAnalyticsReport } from "./analytics-report.server.ts";
import { rollUpExpiredDays } from "./rollup.server.ts";

// The /admin/analytics report (issue 12) on both databases, from a handful of visitors whose every
// figure can be counted by hand: a period that spans rolled-up days and raw ones, the previous
// period, the funnel, conversion, 404s, and leads from an API key kept apart.

const NOW = new Date("2026-11-25T12:00:00.000Z");
// Every day before today is rolled up; 2026-10-26 is the first raw day kept: 2026-10-01 and
// 2026-10-20 lose their raw views.
const RAW_DAYS = 30;
const PERIOD = { from: "2026-10-20", to: "2026-11-25" };

const LAUNCH = { utmSource: "newsletter", utmMedium: "email", utmCampaign: "launch" };
const GOOGLE = { referrerHost: "www.google.com", referrerPath: "/" };
const HACKER_NEWS = { referrerHost: "news.ycombinator.com", referrerPath: "/item" };
const INTERNAL = { referrerHost: "clausebridge.example" };

type View = Partial<Insertable<AnalyticsPageViewsTable>> & { at: string; path: string; visitor: string };

/** Each visitor's views in order; the first one carries where the visit came from. */
const VIEWS: View[] = [
  // 2026-10-01, the previous period: F.
  { at: "2026-10-01T09:00", path: "/", visitor: "F" },
  // 2026-10-20, rolled up: A from the newsletter reaches the demo page; B from Google finds a 404.
  { at: "2026-10-20T08:00", path: "/", visitor: "A", ...LAUNCH },
  { at: "2026-10-20T08:01", path: "/demo", visitor: "A", ...INTERNAL },
  { at: "2026-10-20T09:00", path: "/features", visitor: "B", ...GOOGLE },
  { at: "2026-10-20T09:02", path: "/missing-page", visitor: "B", isNotFound: 1, ...INTERNAL },
  // 2026-11-24, raw: C types the investor page's address; D, on a phone, comes from Hacker News.
  { at: "2026-11-24T14:00", path: "/invest", visitor: "C" },
  {
    at: "2026-11-24T15:00",
    path: "/blog/why-contracts",
    visitor: "D",
    device: "mobile",
    browser: "Safari",
    ...HACKER_NEWS,
  },
  { at: "2026-11-24T15:03", path: "/", visitor: "D", device: "mobile", browser: "Safari", ...INTERNAL },
  // 2026-11-25 (today), raw: E from the newsletter, three pages.
  { at: "2026-11-25T10:00", path: "/", visitor: "E", ...LAUNCH },
  { at: "2026-11-25T10:01", path: "/features", visitor: "E", ...INTERNAL },
  { at: "2026-11-25T10:02", path: "/demo", visitor: "E", ...INTERNAL },
];

const EMAIL_ATTRIBUTION = {
  status: "linked",
  landingPage: "/",
  channel: "Email",
  utmCampaign: "launch",
} as const;

describeEachDatabase("the analytics report", (use) => {
  const db = () => use().db;

  async function addLead(
    at: string,
    attribution: Partial<Insertable<LeadAttributionsTable>> | null,
    lead: Parameters<typeof leadRow>[0] = {},
  ): Promise<void> {
    const createdAt = `${at}:00.000Z`;
    const { id } = await db()
      .insertInto("leads")
      .values(leadRow({ email: `lead-${at}@example.com`, createdAt, updatedAt: createdAt, ...lead }))
      .returning("id")
      .executeTakeFirstOrThrow();
    if (attribution)
      await db()
        .insertInto("leadAttributions")
        .values({
          leadId: Number(id),
          submittedAt: createdAt,
          status: "unknown",
          channel: "Unknown",
          ...attribution,
        })
        .execute();
  }

  beforeEach(async () => {
    for (const table of [
      "analyticsPageViews",
      "analyticsDailyTotals",
      "analyticsDailyCounts",
      "jobLeases",
      "leadAttributions",
      "leadImportChanges",
      "leadImports",
      "leads",
    ] as const)
      await db().deleteFrom(table).execute();
    await db()
      .insertInto("analyticsPageViews")
      .values(
        VIEWS.map(({ at, path, visitor, ...rest }) => ({
          occurredAt: `${at}:00.000Z`,
          path,
          // A visitor id is a visitor of one day.
          visitorId: `${at.slice(0, 10)}-${visitor}`,
          referrerHost: null,
          referrerPath: null,
          utmSource: null,
          utmMedium: null,
          utmCampaign: null,
          utmTerm: null,
          utmContent: null,
          paidClick: 0,
          device: "desktop" as const,
          browser: "Chrome",
          isNotFound: 0,
          ...rest,
        })),
      )
      .execute();
    await addLead("2026-10-01T09:05", { status: "unknown" });
    await addLead("2026-10-20T08:03", EMAIL_ATTRIBUTION, { status: "qualified" });
    await addLead("2026-11-25T10:05", EMAIL_ATTRIBUTION);
    // Sent by an integration with its key: counted apart.
    await addLead("2026-11-24T16:00", { status: "unknown" }, { apiKeyId: 7, source: "HubSpot" });
    // Held as spam: counted nowhere.
    await addLead("2026-11-24T17:00", { status: "unknown" }, { isSpam: 1, spamReason: "honeypot" });
  });

  it("reads the same before and after the old days are rolled up", async () => {
    const before = await buildAnalyticsReport(db(), { ...PERIOD, rawDays: RAW_DAYS, now: NOW });
    const rolled = await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    expect(rolled).toMatchObject({
      days: ["2026-10-01", "2026-10-20", "2026-11-24"],
      expired: ["2026-10-01", "2026-10-20"],
    });
    const after = await buildAnalyticsReport(db(), { ...PERIOD, rawDays: RAW_DAYS, now: NOW });
    expect(after).toEqual(before);
  });

  it("counts a period across rolled-up and raw days as a person would by hand", async () => {
    await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    const report = await buildAnalyticsReport(db(), { ...PERIOD, rawDays: RAW_DAYS, now: NOW });

    // A and B (rolled up), C and D, E (raw): five visitor-days, ten views, one of them a 404.
    expect(report).toMatchObject({
      from: "2026-10-20",
      to: "2026-11-25",
      days: 37,
      granularity: "day",
      visitors: 5,
      pageviews: 10,
      notFoundViews: 1,
      leads: 2,
      apiLeads: 1,
      conversionRate: 0.4,
    });
    expect(report.previous).toEqual({
      from: "2026-09-13",
      to: "2026-10-19",
      visitors: 1,
      pageviews: 1,
      leads: 1,
      apiLeads: 0,
      outsideLeads: 0,
      conversionRate: 1,
    });
    expect(report.outsideLeads).toBe(1);
    expect(report.outsideSources).toEqual([{ origin: "api_key", source: "API key “HubSpot”", leads: 1 }]);
    // A, C, D and E viewed /, /demo or /invest; B only /features and a 404.
    expect(report.funnel).toEqual({
      visitors: 5,
      formPageVisitors: 4,
      leads: 2,
      bookedMeeting: 0,
      qualified: 1,
    });

    expect(report.series).toHaveLength(37);
    expect(report.series[0]).toEqual({ start: "2026-10-20", visitors: 2, pageviews: 4, leads: 1 });
    expect(report.series.at(-2)).toEqual({ start: "2026-11-24", visitors: 2, pageviews: 3, leads: 0 });
    expect(report.series.at(-1)).toEqual({ start: "2026-11-25", visitors: 1, pageviews: 3, leads: 1 });

    expect(report.pages).toEqual([
      { path: "/", visitors: 3, views: 3, leads: 2, conversionRate: 2 / 3 },
      { path: "/demo", visitors: 2, views: 2, leads: 0, conversionRate: 0 },
      { path: "/features", visitors: 2, views: 2, leads: 0, conversionRate: 0 },
      { path: "/blog/why-contracts", visitors: 1, views: 1, leads: 0, conversionRate: 0 },
      { path: "/invest", visitors: 1, views: 1, leads: 0, conversionRate: 0 },
    ]);
    expect(report.entryPages).toEqual([
      { path: "/", visitors: 2, views: 5, leads: 2, conversionRate: 1 },
      { path: "/blog/why-contracts", visitors: 1, views: 2, leads: 0, conversionRate: 0 },
      { path: "/features", visitors: 1, views: 2, leads: 0, conversionRate: 0 },
      { path: "/invest", visitors: 1, views: 1, leads: 0, conversionRate: 0 },
    ]);
    expect(report.referrers).toEqual([
      { host: "news.ycombinator.com", visitors: 1, views: 2, leads: 0, conversionRate: 0 },
      { host: "www.google.com", visitors: 1, views: 2, leads: 0, conversionRate: 0 },
    ]);
    expect(report.channels.slice(0, 4)).toEqual([
      { channel: "Email", visitors: 2, views: 5, leads: 2, conversionRate: 1 },
      { channel: "Organic search", visitors: 1, views: 2, leads: 0, conversionRate: 0 },
      { channel: "Referral", visitors: 1, views: 2, leads: 0, conversionRate: 0 },
      { channel: "Direct", visitors: 1, views: 1, leads: 0, conversionRate: 0 },
    ]);
    // Channels nobody came by are listed, with no rate to show.
    expect(report.channels.slice(4).map((row) => [row.channel, row.visitors, row.conversionRate])).toEqual([
      ["Campaign", 0, null],
      ["Paid", 0, null],
      ["Social", 0, null],
    ]);
    expect(report.campaigns).toEqual([
      { campaign: "launch", visitors: 2, views: 5, leads: 2, conversionRate: 1 },
    ]);
    expect(report.devices).toEqual([
      { device: "desktop", visitors: 4, views: 8 },
      { device: "mobile", visitors: 1, views: 2 },
    ]);
    expect(report.browsers).toEqual([
      { browser: "Chrome", visitors: 4, views: 8 },
      { browser: "Safari", visitors: 1, views: 2 },
    ]);
    expect(report.notFound).toEqual([{ path: "/missing-page", views: 1, visitors: 1 }]);
  });

  it("shows a day within retention hour by hour, even once rolled up", async () => {
    await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => NOW });
    const report = await buildAnalyticsReport(db(), {
      from: "2026-11-24",
      to: "2026-11-24",
      rawDays: RAW_DAYS,
      now: NOW,
    });
    expect(report).toMatchObject({ granularity: "hour", visitors: 2, pageviews: 3, leads: 0, apiLeads: 1 });
    expect(report.series.filter((point) => point.pageviews > 0)).toEqual([
      { start: "2026-11-24T14:00Z", visitors: 1, pageviews: 1, leads: 0 },
      { start: "2026-11-24T15:00Z", visitors: 1, pageviews: 2, leads: 0 },
    ]);
  });

  it("shows today hour by hour, compared with the day before", async () => {
    const report = await buildAnalyticsReport(db(), {
      from: "2026-11-25",
      to: "2026-11-25",
      rawDays: RAW_DAYS,
      now: NOW,
    });
    expect(report).toMatchObject({
      granularity: "hour",
      visitors: 1,
      pageviews: 3,
      leads: 1,
      conversionRate: 1,
    });
    expect(report.series).toHaveLength(24);
    expect(report.series[10]).toEqual({ start: "2026-11-25T10:00Z", visitors: 1, pageviews: 3, leads: 1 });
    expect(report.series.filter((point) => point.pageviews > 0)).toHaveLength(1);
    expect(report.previous).toMatchObject({
      from: "2026-11-24",
      to: "2026-11-24",
      visitors: 2,
      leads: 0,
      apiLeads: 1,
    });
  });

  it("says 0 conversion without visitors, and no rate for a channel with leads but no visits", async () => {
    await addLead("2026-09-02T12:00", { status: "unknown" });
    const report = await buildAnalyticsReport(db(), {
      from: "2026-09-02",
      to: "2026-09-02",
      rawDays: RAW_DAYS,
      now: NOW,
    });
    expect(report).toMatchObject({ granularity: "day", visitors: 0, leads: 1, conversionRate: 0 });
    expect(report.channels.find((row) => row.channel === "Unknown")).toEqual({
      channel: "Unknown",
      visitors: 0,
      views: 0,
      leads: 1,
      conversionRate: null,
    });
  });
});

describeEachDatabase("leads from outside the website in the analytics report (issue 32)", (use) => {
  const db = () => use().db;
  const TODAY = { from: "2026-11-25", to: "2026-11-25", rawDays: RAW_DAYS, now: NOW };
  const MONTH = { from: "2026-10-27", to: "2026-11-25", rawDays: RAW_DAYS, now: NOW };

  async function insertLead(at: string, lead: Parameters<typeof leadRow>[0]): Promise<number> {
    const createdAt = `${at}:00.000Z`;
    const { id } = await db()
      .insertInto("leads")
      .values(leadRow({ createdAt, updatedAt: createdAt, ...lead }))
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(id);
  }

  beforeEach(async () => {
    for (const table of [
      "analyticsPageViews",
      "analyticsDailyTotals",
      "analyticsDailyCounts",
      "jobLeases",
      "leadAttributions",
      "leadImportChanges",
      "leadImports",
      "leads",
    ] as const)
      await db().deleteFrom(table).execute();
    // Nine visitors today, one of whom sent the demo form: 11 % conversion.
    await db()
      .insertInto("analyticsPageViews")
      .values(
        Array.from({ length: 9 }, (_, index) => ({
          occurredAt: `2026-11-25T09:0${index}:00.000Z`,
          path: "/demo",
          visitorId: `2026-11-25-V${index}`,
          referrerHost: null,
          referrerPath: null,
          utmSource: null,
          utmMedium: null,
          utmCampaign: null,
          utmTerm: null,
          utmContent: null,
          paidClick: 0,
          device: "desktop" as const,
          browser: "Chrome",
          isNotFound: 0,
        })),
      )
      .execute();
    const website = await insertLead("2026-11-25T09:30", { email: "site@example.com", source: "form" });
    await db()
      .insertInto("leadAttributions")
      .values({
        leadId: website,
        submittedAt: "2026-11-25T09:30:00.000Z",
        status: "linked",
        channel: "Direct",
        landingPage: "/demo",
      })
      .execute();
  });

  /** Twelve rows of an event's attendee list, stored as lead-import.server.ts commits them; one merges into the website lead. */
  async function importTwelve(): Promise<void> {
    const { id: importId } = await db()
      .insertInto("leadImports")
      .values({
        fileName: "expo.csv",
        status: "committed",
        source: "event",
        createdByUsername: "morgan",
        createdAt: "2026-11-25T11:00:00.000Z",
        committedAt: "2026-11-25T11:00:00.000Z",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let row = 0; row < 12; row++) {
      const leadId = await insertLead("2026-11-25T11:00", {
        email: `attendee${row}@example.com`,
        source: "staff:event",
        sourcePage: null,
        addedByUserId: 1,
        addedByUsername: "morgan",
      });
      await db()
        .insertInto("leadImportChanges")
        .values({ importId: Number(importId), leadId, kind: "created", rowNumber: row + 2, previous: null })
        .execute();
    }
    const [website] = await db()
      .selectFrom("leads")
      .select("id")
      .where("email", "=", "site@example.com")
      .execute();
    await db()
      .insertInto("leadImportChanges")
      .values({
        importId: Number(importId),
        leadId: Number(website?.id),
        kind: "merged",
        rowNumber: 14,
        previous: "{}",
      })
      .execute();
  }

  it("keeps conversion, channels, pages, the series and the funnel to the website's leads", async () => {
    const before = await buildAnalyticsReport(db(), TODAY);
    expect(before).toMatchObject({ visitors: 9, leads: 1, outsideLeads: 0, outsideSources: [] });
    expect(before.conversionRate).toBeCloseTo(1 / 9);

    await importTwelve();
    await insertLead("2026-11-25T11:30", {
      email: "caller@example.com",
      source: "staff:phone_call",
      sourcePage: null,
      addedByUserId: 1,
      addedByUsername: "morgan",
    });
    await insertLead("2026-11-25T11:45", {
      email: "crm@example.com",
      source: "HubSpot",
      apiKeyId: 3,
      sourcePage: null,
    });
    // A key's lead whose key is gone: its name is all that is left.
    await insertLead("2026-11-25T11:50", { email: "old@example.com", source: "Old CRM", sourcePage: null });
    // The public API the site's own forms call, without a key: the website's.
    await insertLead("2026-11-25T11:55", { email: "api@example.com", source: "api", sourcePage: null });

    const after = await buildAnalyticsReport(db(), TODAY);
    expect(after).toMatchObject({ visitors: 9, leads: 2, apiLeads: 2, outsideLeads: 15 });
    expect(after.conversionRate).toBeCloseTo(2 / 9);
    expect(after.outsideSources).toEqual([
      { origin: "imported", source: "Imported: Event", leads: 12 },
      { origin: "api_key", source: "API key “HubSpot”", leads: 1 },
      { origin: "api_key", source: "API key “Old CRM”", leads: 1 },
      { origin: "added_by_staff", source: "Added by staff: Phone call", leads: 1 },
    ]);
    // The one website lead without an attribution row (the public API call) is the only new lead
    // in any table; no imported, hand-added or key lead is "Unknown".
    expect(after.channels.find((row) => row.channel === "Unknown")?.leads).toBe(1);
    expect(after.channels.find((row) => row.channel === "Direct")?.leads).toBe(1);
    expect(after.funnel).toEqual({
      visitors: 9,
      formPageVisitors: 9,
      leads: 2,
      bookedMeeting: 0,
      qualified: 0,
    });
    expect(after.series.reduce((sum, point) => sum + point.leads, 0)).toBe(2);
    expect(after.pages).toEqual(before.pages);
    expect(after.entryPages).toEqual(before.entryPages);
    expect(after.campaigns).toEqual(before.campaigns);

    // The month's report and the day after's comparison say the same.
    const month = await buildAnalyticsReport(db(), MONTH);
    expect(month).toMatchObject({ leads: 2, outsideLeads: 15 });
    const tomorrow = await buildAnalyticsReport(db(), {
      from: "2026-11-26",
      to: "2026-11-26",
      rawDays: RAW_DAYS,
      now: new Date("2026-11-26T12:00:00.000Z"),
    });
    expect(tomorrow.previous).toMatchObject({ visitors: 9, leads: 2, apiLeads: 2, outsideLeads: 15 });
    expect(tomorrow.previous.conversionRate).toBeCloseTo(2 / 9);
  });

  it("reads the same once the day is rolled up", async () => {
    await importTwelve();
    const before = await buildAnalyticsReport(db(), MONTH);
    await rollUpExpiredDays({ db: db(), rawDays: RAW_DAYS, now: () => new Date("2026-11-26T01:00:00.000Z") });
    const after = await buildAnalyticsReport(db(), MONTH);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ leads: 1, outsideLeads: 12 });
  });
});
