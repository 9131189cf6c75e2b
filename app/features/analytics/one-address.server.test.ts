import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import type { AppDatabase } from "#app/db/database.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { buildAnalyticsReport } from "./analytics-report.server.ts";
import { createDailySalts } from "./daily-salt.server.ts";
import { createPageViewCounter } from "./page-view-counter.server.ts";
import { MAX_VALUES_PER_DAY, OTHER_VALUE } from "./rollup.server.ts";
import { MAX_VIEWS_PER_ADDRESS_PER_DAY, MAX_VISITORS_PER_ADDRESS } from "./view-limits.server.ts";

// Issue 22: one client address changing only its User-Agent, with 200-character UTM values and
// referrers, used to add one visitor and one ~1.5 KB row per request (10,000 requests: 9,996
// visitors, 29.5 MB on SQLite). Now an address brings at most MAX_VISITORS_PER_ADDRESS visitors a
// day, views beyond its rate are not stored, and what is stored is cut to 100 characters.

const REQUESTS = 10_000;
const MAX_GROWTH_BYTES = 2 * 1024 * 1024;
const HOST = "www.example.co.uk";

/** The bytes the database holds: SQLite's pages (after a checkpoint), PostgreSQL's tables of this schema. */
async function databaseBytes(database: AppDatabase): Promise<number> {
  if (database.dialect === "sqlite") {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
    const result = await sql<{ bytes: number }>`
      select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(
      database.db,
    );
    return Number(result.rows[0]?.bytes);
  }
  const result = await sql<{ bytes: string | null }>`
    select sum(pg_total_relation_size(c.oid))::text as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'm')`.execute(database.db);
  return Number(result.rows[0]?.bytes ?? 0);
}

/** A desktop Chrome of another build on every request: a new browser to the visitor hash. */
function userAgent(i: number): string {
  return `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (i % 40)}.0.${i}.0 Safari/537.36`;
}

/** `length` characters that start with `i`, so every request's value is new. */
function filler(i: number, letter: string, length = 200): string {
  return `${i}-`.padEnd(length, letter);
}

/**
 * Counts `requests` page views from `address(i)`, as the server does, at `at(i)` (now by default),
 * with a new User-Agent, new 200-character UTM values and a new 200-character referrer each.
 */
async function sendFromOneAddress(
  database: AppDatabase,
  address: (i: number) => string,
  { requests = REQUESTS, at }: { requests?: number; at?: (i: number) => Date } = {},
): Promise<void> {
  let clock = at?.(0) ?? new Date();
  const now = () => (at ? clock : new Date());
  const salts = createDailySalts(database.db, now);
  // The day's salt is normally in memory: views are hashed (and limited) as they come.
  await salts.get(now().toISOString().slice(0, 10));
  const counter = createPageViewCounter({
    db: database.db,
    enabled: true,
    salts,
    now,
    flushIntervalMs: 60_000,
  });
  for (let i = 0; i < requests; i++) {
    if (at) clock = at(i);
    const query = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"]
      .map((name, n) => `${name}=${filler(i, "abcde"[n] ?? "x")}`)
      .join("&");
    const target = `/${i % 2 === 0 ? "" : "solution"}?${query}`;
    const request = {
      method: "GET",
      url: target,
      headers: {
        host: HOST,
        "user-agent": userAgent(i),
        referer: `https://${filler(i, "r", 60)}.example.net/${filler(i, "p")}`,
      },
    };
    expect(counter.shouldCount(request)).toBe(true);
    counter.count(request, new URL(target, `https://${HOST}`), {
      notFound: false,
      clientAddress: address(i),
    });
    // As a server would: the event loop turns between requests now and then (the early flushes).
    if (i % 250 === 249) await new Promise((resolve) => setImmediate(resolve));
  }
  await counter.stop();
}

describeEachDatabase("one client address changing its User-Agent", (use) => {
  afterEach(async () => {
    await use().db.deleteFrom("analyticsPageViews").execute();
    await use().db.deleteFrom("analyticsSalts").execute();
  });

  it(`adds at most ${MAX_VISITORS_PER_ADDRESS} visitors and under 2 MB for ${REQUESTS} requests`, async () => {
    const before = await databaseBytes(use());
    const started = performance.now();
    await sendFromOneAddress(use(), () => "203.0.113.7");
    const seconds = (performance.now() - started) / 1000;
    const grown = (await databaseBytes(use())) - before;
    const today = new Date().toISOString().slice(0, 10);
    const report = await buildAnalyticsReport(use().db, { from: today, to: today, rawDays: 30 });
    const stored = await use()
      .db.selectFrom("analyticsPageViews")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    console.info(
      `[${use().dialect}] ${REQUESTS} requests in ${seconds.toFixed(1)} s: ${report.visitors} visitors, ` +
        `${report.pageviews} views stored (${Number(stored.count)} rows), ${(grown / 1024).toFixed(0)} KiB grown`,
    );
    expect(report.visitors).toBeGreaterThan(0);
    expect(report.visitors).toBeLessThanOrEqual(MAX_VISITORS_PER_ADDRESS);
    expect(grown).toBeLessThan(MAX_GROWTH_BYTES);
  }, 60_000);

  it(`stores at most ${MAX_VIEWS_PER_ADDRESS_PER_DAY} views, under 2 MB, when the ${REQUESTS} are paced over a day`, async () => {
    // Yesterday, one request every 8.6 s: never over the rate, so the day's number is what stops them.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const midnight = Date.parse(`${yesterday}T00:00:00Z`);
    const before = await databaseBytes(use());
    await sendFromOneAddress(use(), () => "203.0.113.9", { at: (i) => new Date(midnight + i * 8_600) });
    const grown = (await databaseBytes(use())) - before;
    const report = await buildAnalyticsReport(use().db, { from: yesterday, to: yesterday, rawDays: 30 });
    console.info(
      `[${use().dialect}] ${REQUESTS} paced requests: ${report.visitors} visitors, ${report.pageviews} views stored, ` +
        `${(grown / 1024).toFixed(0)} KiB grown`,
    );
    expect(report.pageviews).toBe(MAX_VIEWS_PER_ADDRESS_PER_DAY);
    expect(report.visitors).toBeLessThanOrEqual(MAX_VISITORS_PER_ADDRESS);
    expect(grown).toBeLessThan(MAX_GROWTH_BYTES);
  }, 60_000);

  it("takes an IPv6 /64 as one address, and another /64 as another", async () => {
    // Every request from a new interface id of one /64 (as privacy extensions rotate them).
    await sendFromOneAddress(use(), (i) => `2001:db8:abcd:12::${(i + 1).toString(16)}`, { requests: 500 });
    const today = new Date().toISOString().slice(0, 10);
    const first = await buildAnalyticsReport(use().db, { from: today, to: today, rawDays: 30 });
    expect(first.visitors).toBeGreaterThan(0);
    expect(first.visitors).toBeLessThanOrEqual(MAX_VISITORS_PER_ADDRESS);
    await sendFromOneAddress(use(), (i) => `2001:db8:abcd:13:${(i + 1).toString(16)}::1`, { requests: 500 });
    const both = await buildAnalyticsReport(use().db, { from: today, to: today, rawDays: 30 });
    expect(both.visitors).toBeGreaterThan(first.visitors);
    expect(both.visitors).toBeLessThanOrEqual(2 * MAX_VISITORS_PER_ADDRESS);
  });
});

describeEachDatabase("a scanner inventing a 404 path per request", (use) => {
  afterEach(async () => {
    await use().db.deleteFrom("analyticsPageViews").execute();
    await use().db.deleteFrom("analyticsSalts").execute();
  });

  it(`counts every 404 and stores at most ${MAX_VALUES_PER_DAY} of its paths a day`, async () => {
    const salts = createDailySalts(use().db);
    await salts.get(new Date().toISOString().slice(0, 10));
    const counter = createPageViewCounter({ db: use().db, enabled: true, salts, flushIntervalMs: 60_000 });
    const requests = 2_000;
    for (let i = 0; i < requests; i++) {
      // From addresses of its own, so no address's rate stops it: only the paths are bounded.
      const target = `/wp-${i.toString(36)}-${"z".repeat(150)}`;
      const request = { method: "GET", url: target, headers: { host: HOST, "user-agent": userAgent(i) } };
      counter.count(request, new URL(target, `https://${HOST}`), {
        notFound: true,
        clientAddress: `10.0.${i >> 8}.${i & 255}`,
      });
      if (i % 250 === 249) await new Promise((resolve) => setImmediate(resolve));
    }
    await counter.stop();
    const paths = await use()
      .db.selectFrom("analyticsPageViews")
      .select("path")
      .distinct()
      .where("isNotFound", "=", 1)
      .execute();
    expect(paths.length).toBeLessThanOrEqual(MAX_VALUES_PER_DAY + 1);
    expect(paths.map((row) => row.path)).toContain(OTHER_VALUE);
    for (const { path } of paths) expect(path.length).toBeLessThanOrEqual(100);
    const today = new Date().toISOString().slice(0, 10);
    const report = await buildAnalyticsReport(use().db, { from: today, to: today, rawDays: 30 });
    expect(report.notFoundViews).toBe(requests);
    expect(report.notFound.find((row) => row.path === OTHER_VALUE)?.views).toBeGreaterThan(requests / 2);
  });
});
