import type { Insertable, Kysely } from "kysely";
import type { AnalyticsPageViewsTable, Database } from "../../app/db/schema.ts";
import { channelOf } from "../../app/features/analytics/channel.ts";
import { leadKeys } from "../../app/features/leads/lead-repository.server.ts";
import { PRIVACY_NOTICE_VERSION } from "../../app/features/leads/lead-schema.ts";
import { seededRandom } from "./seeded-random.ts";

// A year of a small B2B site's traffic for the analytics benchmark and screenshots (issue 12): raw
// page views of every day (the caller runs the real rollup over the old ones), and the leads a
// share of the visitors sent, each with the attribution settling would have given it. The same data
// on every run (seeded). Busier on weekdays, growing over the year.

const DAY_MS = 86_400_000;
const HOST = "clausebridge.example";
const BLOG = [
  "why-contracts-go-wrong",
  "nec4-compensation-events",
  "jct-payment-notices",
  "retention-release-checklist",
  "subcontractor-onboarding",
  "variations-without-spreadsheets",
  "early-warning-registers",
  "adjudication-timelines",
  "building-safety-act-records",
  "digital-site-diaries",
  "cost-value-reconciliation",
  "ai-clause-review",
].map((slug) => `/blog/${slug}`);
const PAGES = [
  "/",
  "/features",
  "/solution",
  "/problem",
  "/demo",
  "/invest",
  "/blog",
  "/privacy-policy",
  ...BLOG,
];
const ENTRY_PAGES = [
  ...Array<string>(14).fill("/"),
  ...Array<string>(4).fill("/features"),
  "/solution",
  "/problem",
  ...Array<string>(3).fill("/demo"),
  "/invest",
  "/blog",
  ...BLOG,
  ...BLOG,
];
const REFERRAL_HOSTS = [
  "news.ycombinator.com",
  "constructionnews.co.uk",
  "theconstructionindex.co.uk",
  "ribaj.com",
  "building.co.uk",
  "pbctoday.co.uk",
  "ice.org.uk",
  "ciob.org",
  "github.com",
  "medium.com",
  "substack.com",
  "producthunt.com",
];
const MISSING = [
  "/pricing",
  "/login",
  "/wp-login.php",
  "/blog/nec-4-compensation",
  "/careers",
  "/contact",
  "/about-us",
  "/features/ai",
  "/.env",
  "/demo-request/thanks",
];

type Source = Partial<Insertable<AnalyticsPageViewsTable>>;
/** Where a visit comes from, with its weight. */
const SOURCES: [number, () => Source][] = [
  [34, () => ({})],
  [22, () => ({ referrerHost: "www.google.com", referrerPath: "/" })],
  [3, () => ({ referrerHost: "www.bing.com", referrerPath: "/search" })],
  [2, () => ({ referrerHost: "duckduckgo.com", referrerPath: "/" })],
  [7, () => ({ referrerHost: "www.linkedin.com", referrerPath: "/feed/" })],
  [1, () => ({ referrerHost: "t.co", referrerPath: "/x1" })],
  [9, () => ({ referrerHost: pick(REFERRAL_HOSTS), referrerPath: "/article" })],
  [5, () => ({ utmSource: "newsletter", utmMedium: "email", utmCampaign: "monthly-update" })],
  [3, () => ({ utmSource: "newsletter", utmMedium: "email", utmCampaign: "launch" })],
  [5, () => ({ utmSource: "google", utmMedium: "cpc", utmCampaign: "brand-search", paidClick: 1 })],
  [2, () => ({ utmSource: "linkedin", utmMedium: "paid-social", utmCampaign: "tier2-contractors" })],
  [2, () => ({ utmSource: "linkedin", utmMedium: "social", utmCampaign: "webinar-nec4" })],
  [2, () => ({ utmSource: "partner", utmMedium: "referral", utmCampaign: "ciob-partnership" })],
  [3, () => ({ utmSource: "events", utmMedium: "qr", utmCampaign: "uk-construction-week" })],
];
const SOURCE_TOTAL = SOURCES.reduce((sum, [weight]) => sum + weight, 0);
const DEVICES: [number, "desktop" | "mobile" | "tablet"][] = [
  [62, "desktop"],
  [33, "mobile"],
  [5, "tablet"],
];
const BROWSERS: [number, string][] = [
  [55, "Chrome"],
  [24, "Safari"],
  [11, "Edge"],
  [7, "Firefox"],
  [3, "Samsung Internet"],
];

let random = seededRandom(20261126);
const pick = <T>(items: readonly T[]): T => random.pick(items);
function weighted<T>(choices: [number, T][]): T {
  let roll = random.next() * choices.reduce((sum, [weight]) => sum + weight, 0);
  for (const [weight, value] of choices) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return choices[0]?.[1] as T;
}

export type SeedOptions = {
  db: Kysely<Database>;
  /** Page views to generate over the period (about). */
  views: number;
  /** Days back from `now`, today included. */
  days: number;
  now: Date;
  /** Share of the visitors that send a lead. */
  leadRate?: number;
  onProgress?: (message: string) => void;
};

export type SeedResult = { views: number; visitors: number; leads: number };

/** Inserts the views and leads, a day per transaction. */
export async function seedAnalytics({
  db,
  views,
  days,
  now,
  leadRate = 0.012,
  onProgress = () => {},
}: SeedOptions): Promise<SeedResult> {
  random = seededRandom(20261126);
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  // Each day's weight: weekdays busier, the year growing from 60 % to 140 % of the mean.
  const weights = Array.from({ length: days }, (_, index) => {
    const day = new Date(today - (days - 1 - index) * DAY_MS);
    const weekday = day.getUTCDay();
    const weekly = weekday === 0 || weekday === 6 ? 0.55 : 1.15;
    return weekly * (0.6 + (0.8 * index) / Math.max(1, days - 1)) * (0.85 + random.next() * 0.3);
  });
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  let stored = 0;
  let visitorCount = 0;
  let leadCount = 0;
  for (let index = 0; index < days; index++) {
    const dayStart = today - (days - 1 - index) * DAY_MS;
    // Today is cut at `now`.
    const dayLength = Math.min(DAY_MS, now.getTime() - dayStart);
    const target = Math.round((views * (weights[index] ?? 0)) / totalWeight);
    const rows: Insertable<AnalyticsPageViewsTable>[] = [];
    const leads: {
      at: number;
      landing: string;
      first: Source;
      status: string;
      spam: boolean;
      key: boolean;
    }[] = [];
    let visitor = 0;
    while (rows.length < target) {
      visitor++;
      const id = `${dayStart.toString(36)}${visitor.toString(36).padStart(5, "0")}`.padEnd(32, "0");
      const source = weighted(SOURCES.map(([weight, make]) => [weight / SOURCE_TOTAL, make]));
      const first: Source = source();
      const device = weighted(DEVICES);
      const browser = device === "desktop" || random.next() < 0.5 ? weighted(BROWSERS) : "Safari";
      const count = Math.min(target - rows.length, 1 + Math.floor(-Math.log(1 - random.next()) * 1.6));
      let at = dayStart + Math.floor(random.next() * Math.max(1, dayLength - 600_000));
      for (let view = 0; view < count; view++) {
        const notFound = random.next() < 0.015;
        const path = notFound ? pick(MISSING) : view === 0 ? pick(ENTRY_PAGES) : pick(PAGES);
        rows.push({
          occurredAt: new Date(Math.min(at, dayStart + dayLength - 1)).toISOString(),
          path,
          referrerHost: view === 0 ? (first.referrerHost ?? null) : HOST,
          referrerPath: view === 0 ? (first.referrerPath ?? null) : null,
          utmSource: view === 0 ? (first.utmSource ?? null) : null,
          utmMedium: view === 0 ? (first.utmMedium ?? null) : null,
          utmCampaign: view === 0 ? (first.utmCampaign ?? null) : null,
          utmTerm: null,
          utmContent: null,
          paidClick: view === 0 ? (first.paidClick ?? 0) : 0,
          device,
          browser,
          visitorId: id,
          isNotFound: notFound ? 1 : 0,
        });
        at += 10_000 + Math.floor(random.next() * 90_000);
      }
      if (random.next() < leadRate * (count > 2 ? 2 : 0.6)) {
        const roll = random.next();
        leads.push({
          at: Math.min(at, dayStart + dayLength - 1),
          landing: rows[rows.length - count]?.path ?? "/",
          first,
          status:
            roll < 0.45
              ? "new"
              : roll < 0.7
                ? "contacted"
                : roll < 0.85
                  ? "qualified"
                  : roll < 0.95
                    ? "unqualified"
                    : "customer",
          spam: random.next() < 0.04,
          key: false,
        });
      }
    }
    // An integration's leads: a few a week, not from the site.
    if (random.next() < 0.4)
      leads.push({
        at: dayStart + Math.floor(dayLength / 2),
        landing: "",
        first: {},
        status: "new",
        spam: false,
        key: true,
      });
    visitorCount += visitor;
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += 500)
        await trx
          .insertInto("analyticsPageViews")
          .values(rows.slice(start, start + 500))
          .execute();
      for (const lead of leads) {
        const createdAt = new Date(lead.at).toISOString();
        const n = ++leadCount;
        const row = {
          requestType: "demo" as const,
          fullName: `Seeded Lead ${n}`,
          email: `seeded-lead-${n}@example.com`,
          company: `Seeded Builders ${n % 97} Ltd`,
          phone: "+44 20 7946 0000",
          message: null,
          investorAngel: 0,
          investorVc: 0,
          investorIntroducer: 0,
          investorOther: 0,
          otherDetails: null,
          sourcePage: lead.key ? null : "/demo",
          privacyNoticeVersion: PRIVACY_NOTICE_VERSION,
          isSpam: lead.spam ? 1 : 0,
          spamReason: lead.spam ? "honeypot" : null,
          status: lead.status,
          source: lead.key ? "CRM import" : "form",
          apiKeyId: lead.key ? 1 : null,
          createdAt,
          updatedAt: createdAt,
        };
        const { id } = await trx
          .insertInto("leads")
          .values({ ...row, ...leadKeys(row) })
          .returning("id")
          .executeTakeFirstOrThrow();
        const external = lead.first.referrerPath != null;
        await trx
          .insertInto("leadAttributions")
          .values(
            lead.key
              ? {
                  leadId: Number(id),
                  status: "unknown",
                  submittedAt: createdAt,
                  channel: "Unknown",
                  resolvedAt: createdAt,
                }
              : {
                  leadId: Number(id),
                  status: "linked",
                  submittedAt: createdAt,
                  landingPage: lead.landing,
                  referrerHost: external ? (lead.first.referrerHost ?? null) : null,
                  referrerPath: external ? (lead.first.referrerPath ?? null) : null,
                  channel: channelOf({
                    referrerHost: lead.first.referrerHost ?? null,
                    referrerPath: lead.first.referrerPath ?? null,
                    utmSource: lead.first.utmSource ?? null,
                    utmMedium: lead.first.utmMedium ?? null,
                    utmCampaign: lead.first.utmCampaign ?? null,
                    paidClick: Boolean(lead.first.paidClick),
                  }),
                  utmSource: lead.first.utmSource ?? null,
                  utmMedium: lead.first.utmMedium ?? null,
                  utmCampaign: lead.first.utmCampaign ?? null,
                  resolvedAt: createdAt,
                },
          )
          .execute();
      }
    });
    stored += rows.length;
    if (index % 30 === 29 || index === days - 1)
      onProgress(`${stored.toLocaleString("en-GB")} views, ${leadCount.toLocaleString("en-GB")} leads`);
  }
  return { views: stored, visitors: visitorCount, leads: leadCount };
}
