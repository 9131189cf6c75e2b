import type { Insertable } from "kysely";
import { beforeEach, expect, it } from "vitest";
import type { LeadAttributionsTable } from "#app/db/schema.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { buildAnalyticsReport } from "./analytics-report.server.ts";
import { firstDayOfLast, MAX_TRAFFIC_PATHS, pageTrafficSince } from "./page-traffic.server.ts";
import { rollUpExpiredDays } from "./rollup.server.ts";

// The content studio's "views and leads in the last 30 days" of each post (issue 24), on both
// databases: the analytics report's numbers for the same pages, from rolled-up days and raw ones
// alike, and nothing from before the first day.

const NOW = new Date("2026-11-25T12:00:00.000Z");
const SINCE = firstDayOfLast(30, NOW);
const ARTICLE = "/blog/retention-explained";
const OTHER = "/blog/adjudication-basics";

/** [day and time, path, visitor, is a 404] */
const VIEWS: [string, string, string, number?][] = [
  // Before the 30 days: not counted.
  ["2026-10-20T08:00", ARTICLE, "A"],
  // Counted days (rolled up below).
  ["2026-10-27T08:00", ARTICLE, "B"],
  ["2026-10-27T08:05", ARTICLE, "B"],
  ["2026-11-10T09:00", ARTICLE, "C"],
  ["2026-11-10T09:10", OTHER, "C"],
  // A 404 at the same address (a typo in a link before it was published) is not a view of the post.
  ["2026-11-12T09:00", ARTICLE, "D", 1],
  // Today, raw.
  ["2026-11-25T10:00", ARTICLE, "E"],
];

describeEachDatabase("views and leads of pages since a day", (use) => {
  const db = () => use().db;

  async function addLead(
    at: string,
    attribution: Partial<Insertable<LeadAttributionsTable>>,
    lead: Parameters<typeof leadRow>[0] = {},
  ) {
    const createdAt = `${at}:00.000Z`;
    const { id } = await db()
      .insertInto("leads")
      .values(leadRow({ email: `lead-${at}@example.com`, createdAt, updatedAt: createdAt, ...lead }))
      .returning("id")
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("leadAttributions")
      .values({
        leadId: Number(id),
        submittedAt: createdAt,
        status: "linked",
        channel: "Direct",
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
      "leads",
    ] as const)
      await db().deleteFrom(table).execute();
    await db()
      .insertInto("analyticsPageViews")
      .values(
        VIEWS.map(([at, path, visitor, isNotFound = 0]) => ({
          occurredAt: `${at}:00.000Z`,
          path,
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
          isNotFound,
        })),
      )
      .execute();
    await addLead("2026-10-20T08:10", { landingPage: ARTICLE }); // before the 30 days
    await addLead("2026-10-27T08:10", { landingPage: ARTICLE });
    await addLead("2026-11-25T10:05", { landingPage: ARTICLE });
    await addLead("2026-11-10T09:20", { landingPage: OTHER });
    // Held as spam, or sent by an integration with its key: the report counts neither.
    await addLead("2026-11-11T09:00", { landingPage: ARTICLE }, { isSpam: 1, spamReason: "honeypot" });
    await addLead("2026-11-11T10:00", { landingPage: ARTICLE }, { apiKeyId: 7, source: "HubSpot" });
  });

  it("counts the last 30 days' views (404s aside) and leads that entered on each page", async () => {
    const expected = new Map([
      [ARTICLE, { views: 4, leads: 2 }],
      [OTHER, { views: 1, leads: 1 }],
      ["/blog/never-read", { views: 0, leads: 0 }],
    ]);
    expect(SINCE).toBe("2026-10-27");
    const paths = [...expected.keys()];
    expect(await pageTrafficSince(db(), paths, SINCE)).toEqual(expected);
    // Once the old days are rolled up (as the server does after midnight), the same numbers.
    await rollUpExpiredDays({ db: db(), rawDays: 1, now: () => NOW });
    const totals = await db().selectFrom("analyticsDailyTotals").select("day").execute();
    expect(totals.length).toBeGreaterThan(0);
    expect(await pageTrafficSince(db(), paths, SINCE)).toEqual(expected);
  });

  it("agrees with the analytics report's pages for the same period", async () => {
    await rollUpExpiredDays({ db: db(), rawDays: 1, now: () => NOW });
    const report = await buildAnalyticsReport(db(), { from: SINCE, to: "2026-11-25", rawDays: 1, now: NOW });
    const traffic = await pageTrafficSince(db(), [ARTICLE, OTHER], SINCE);
    for (const row of report.pages.filter((page) => page.path.startsWith("/blog/")))
      expect(traffic.get(row.path)).toEqual({ views: row.views, leads: row.leads });
  });

  it("reads nothing for no paths and refuses more than a page of the list", async () => {
    expect(await pageTrafficSince(db(), [], SINCE)).toEqual(new Map());
    const many = Array.from({ length: MAX_TRAFFIC_PATHS + 1 }, (_, i) => `/blog/post-${i}`);
    await expect(pageTrafficSince(db(), many, SINCE)).rejects.toThrow(RangeError);
  });
});
