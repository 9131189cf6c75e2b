import { afterEach, expect, it, vi } from "vitest";
import type { AppDatabase } from "#app/db/database.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { createDailySalts, type DailySalts, utcDay, visitorId } from "./daily-salt.server.ts";
import type { PageView } from "./page-view.ts";
import { createPageViewCounter } from "./page-view-counter.server.ts";
import { createPageViewWriter } from "./page-view-writer.server.ts";
import { OTHER_VALUE } from "./rollup.server.ts";
import { createViewLimits } from "./view-limits.server.ts";

const ADDRESS = "198.51.100.23";
const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const identity = { clientAddress: ADDRESS, userAgent: USER_AGENT, host: "www.example.co.uk" };

function pageView(path: string, overrides: Partial<PageView> = {}): PageView {
  return {
    occurredAt: new Date().toISOString(),
    path,
    referrerHost: null,
    referrerPath: null,
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    utmTerm: null,
    utmContent: null,
    paidClick: false,
    device: "desktop",
    browser: "Chrome",
    isNotFound: false,
    ...overrides,
  };
}

async function storedCount(database: AppDatabase): Promise<number> {
  const row = await database.db
    .selectFrom("analyticsPageViews")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describeEachDatabase("page view writer", (use) => {
  afterEach(async () => {
    await use().db.deleteFrom("analyticsPageViews").execute();
    await use().db.deleteFrom("analyticsSalts").execute();
  });

  it("writes nothing before a flush, then every view in one go", async () => {
    const writer = createPageViewWriter({
      db: use().db,
      salts: createDailySalts(use().db),
      flushIntervalMs: 60_000,
    });
    for (const path of ["/", "/problem", "/solution"]) writer.record(pageView(path), identity);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await storedCount(use())).toBe(0);
    expect(writer.stats().buffered).toBe(3);
    await writer.flush();
    expect(await storedCount(use())).toBe(3);
    expect(writer.stats()).toMatchObject({ buffered: 0, written: 3, dropped: 0 });
    await writer.stop();
  });

  it("flushes by itself within the interval", async () => {
    const writer = createPageViewWriter({
      db: use().db,
      salts: createDailySalts(use().db),
      flushIntervalMs: 100,
    });
    const started = Date.now();
    writer.record(pageView("/"), identity);
    writer.record(pageView("/features"), identity);
    await vi.waitFor(async () => expect(await storedCount(use())).toBe(2), { timeout: 2000, interval: 20 });
    expect(Date.now() - started).toBeLessThan(2000);
    await writer.stop();
  });

  it("flushes at once when a batch is full, without waiting for the interval", async () => {
    const writer = createPageViewWriter({
      db: use().db,
      salts: createDailySalts(use().db),
      flushIntervalMs: 60_000,
      batchSize: 5,
    });
    for (let i = 0; i < 5; i++) writer.record(pageView(`/p${i}`), identity);
    await vi.waitFor(async () => expect(await storedCount(use())).toBe(5), { timeout: 2000, interval: 20 });
    await writer.stop();
  });

  it("writes everything on stop (clean shutdown), in batches, and ignores views after it", async () => {
    const writer = createPageViewWriter({
      db: use().db,
      salts: createDailySalts(use().db),
      flushIntervalMs: 60_000,
      batchSize: 500,
    });
    // Recorded in one turn of the event loop: the early flush the full batches ask for runs later.
    for (let i = 0; i < 1234; i++) writer.record(pageView(`/blog/post-${i % 7}`), identity);
    await writer.stop();
    expect(await storedCount(use())).toBe(1234);
    writer.record(pageView("/late"), identity);
    await writer.flush();
    expect(await storedCount(use())).toBe(1234);
  });

  it("bounds memory: beyond the cap the oldest views are dropped and counted", async () => {
    const writer = createPageViewWriter({
      db: use().db,
      salts: createDailySalts(use().db),
      flushIntervalMs: 60_000,
      maxBuffered: 10,
    });
    for (let i = 0; i < 15; i++) writer.record(pageView(`/p${i}`), identity);
    expect(writer.stats()).toMatchObject({ buffered: 10, dropped: 5 });
    await writer.stop();
    const paths = await use().db.selectFrom("analyticsPageViews").select("path").orderBy("id").execute();
    expect(paths.map((row) => row.path)).toEqual(Array.from({ length: 10 }, (_, i) => `/p${i + 5}`));
  });

  it("stores the hashed visitor id and never the address or the User-Agent", async () => {
    const salts = createDailySalts(use().db);
    const writer = createPageViewWriter({ db: use().db, salts, flushIntervalMs: 60_000 });
    const view = pageView("/demo", {
      referrerHost: "news.example.org",
      referrerPath: "/a",
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "launch",
      paidClick: true,
      isNotFound: false,
    });
    // The first view of the day waits for the salt; once it is known, views are hashed as they come.
    writer.record(view, identity);
    await writer.flush();
    writer.record(pageView("/missing", { isNotFound: true }), identity);
    await writer.stop();
    const rows = await use().db.selectFrom("analyticsPageViews").selectAll().orderBy("id").execute();
    const expected = visitorId(await salts.get(utcDay(view.occurredAt)), identity);
    expect(rows).toMatchObject([
      {
        path: "/demo",
        occurredAt: view.occurredAt,
        referrerHost: "news.example.org",
        referrerPath: "/a",
        utmSource: "newsletter",
        utmMedium: "email",
        utmCampaign: "launch",
        utmTerm: null,
        utmContent: null,
        paidClick: 1,
        device: "desktop",
        browser: "Chrome",
        isNotFound: 0,
        visitorId: expected,
      },
      { path: "/missing", isNotFound: 1, paidClick: 0, visitorId: expected },
    ]);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(ADDRESS);
    expect(stored).not.toContain("Mozilla");
  });

  it("keeps the views when a flush fails and logs without personal data", async () => {
    const errors: string[] = [];
    const real = createDailySalts(use().db);
    let failing = true;
    const salts: DailySalts = {
      cached: () => undefined,
      get: (day) => (failing ? Promise.reject(new Error("connection refused")) : real.get(day)),
      prune: real.prune,
    };
    const writer = createPageViewWriter({
      db: use().db,
      salts,
      flushIntervalMs: 60_000,
      logger: { error: (message) => errors.push(message) },
    });
    writer.record(pageView("/secret-path"), identity);
    await writer.flush();
    expect(await storedCount(use())).toBe(0);
    expect(writer.stats()).toMatchObject({ buffered: 1, failedFlushes: 1 });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("connection refused");
    for (const secret of [ADDRESS, "Mozilla", "/secret-path"]) expect(errors[0]).not.toContain(secret);
    failing = false;
    await writer.stop();
    expect(await storedCount(use())).toBe(1);
  });

  it("limits an address's views before the day's salt is known too, at the flush (issue 22)", async () => {
    // The first views of a day wait for the salt: they are hashed, and limited, when flushed.
    const writer = createPageViewWriter({
      db: use().db,
      salts: createDailySalts(use().db),
      flushIntervalMs: 60_000,
      limits: createViewLimits({ maxVisitors: 3, burst: 5, viewsPerMinute: 0 }),
    });
    for (let i = 0; i < 8; i++)
      writer.record(pageView("/"), { ...identity, userAgent: `${USER_AGENT} ${i}` });
    expect(writer.stats()).toMatchObject({ buffered: 8, limited: 0 });
    await writer.flush();
    // Once the salt is known, a view over the rate is not even buffered.
    writer.record(pageView("/"), identity);
    expect(writer.stats()).toMatchObject({ buffered: 0, written: 5, limited: 4 });
    await writer.stop();
    const rows = await use().db.selectFrom("analyticsPageViews").select("visitorId").execute();
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((row) => row.visitorId)).size).toBe(3);
  });

  it("stores a 404 past the day's kept paths as (other), still as a 404", async () => {
    const writer = createPageViewWriter({
      db: use().db,
      salts: createDailySalts(use().db),
      flushIntervalMs: 60_000,
      limits: createViewLimits({ maxNotFoundPaths: 2, notFoundOnFirstSight: 1 }),
    });
    for (const path of ["/a", "/b", "/b", "/c", "/d"])
      writer.record(pageView(path, { isNotFound: true }), {
        ...identity,
        clientAddress: `192.0.2.${path.length}`,
      });
    writer.record(pageView("/solution"), identity);
    await writer.stop();
    const rows = await use()
      .db.selectFrom("analyticsPageViews")
      .select(["path", "isNotFound"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { path: "/a", isNotFound: 1 },
      { path: OTHER_VALUE, isNotFound: 1 },
      { path: "/b", isNotFound: 1 },
      { path: OTHER_VALUE, isNotFound: 1 },
      { path: OTHER_VALUE, isNotFound: 1 },
      { path: "/solution", isNotFound: 0 },
    ]);
  });

  it("never makes the request wait: record() returns before anything is written", async () => {
    const writer = createPageViewWriter({ db: use().db, salts: createDailySalts(use().db), batchSize: 1 });
    const result = writer.record(pageView("/"), identity);
    // Still in memory on return, even with a full batch: the write starts on a later turn of the loop.
    expect(result).toBeUndefined();
    expect(writer.stats()).toMatchObject({ buffered: 1, written: 0 });
    await writer.stop();
    expect(await storedCount(use())).toBe(1);
  });
});

describeEachDatabase("page view counter", (use) => {
  afterEach(async () => {
    await use().db.deleteFrom("analyticsPageViews").execute();
    await use().db.deleteFrom("analyticsSalts").execute();
  });

  const headers = { host: "www.example.co.uk", "user-agent": USER_AGENT };
  const url = new URL("https://www.example.co.uk/?utm_source=ads&gclid=abc");

  it("counts a page from a browser, from the request to the row", async () => {
    const counter = createPageViewCounter({ db: use().db, enabled: true, flushIntervalMs: 60_000 });
    const request = { method: "GET", url: "/?utm_source=ads&gclid=abc", headers };
    expect(counter.shouldCount(request)).toBe(true);
    counter.count(request, url, { notFound: false, clientAddress: ADDRESS });
    await counter.stop();
    const rows = await use().db.selectFrom("analyticsPageViews").selectAll().execute();
    expect(rows).toMatchObject([{ path: "/", utmSource: "ads", paidClick: 1, device: "desktop" }]);
  });

  it("counts nothing when ANALYTICS=off", async () => {
    const counter = createPageViewCounter({ db: use().db, enabled: false, flushIntervalMs: 10 });
    const request = { method: "GET", url: "/", headers };
    expect(counter.shouldCount(request)).toBe(false);
    counter.count(request, url, { notFound: false, clientAddress: ADDRESS });
    await counter.stop();
    expect(await storedCount(use())).toBe(0);
  });
});
