import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";

// Cookieless page-view counting through the production server (issue 12, ADR 014). The browser
// journeys elsewhere run HeadlessChrome, which isbot rightly calls a bot: they are not counted.

const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

type Server = { server: RunningServer; database: AppDatabase; dir: string };

async function start(env: Record<string, string> = {}): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), "e2e-analytics-"));
  const databaseUrl = join(dir, "analytics.sqlite");
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "error",
    TRUST_PROXY: "1",
    ...env,
  });
  return { server, database: openDatabase(databaseUrl), dir };
}

async function stop(running: Server | undefined): Promise<void> {
  if (!running) return;
  await running.server.stop();
  await running.database.close();
  rmSync(running.dir, { recursive: true, force: true });
}

function get(server: Server, path: string, headers: Record<string, string> = {}, method = "GET") {
  return fetch(`${server.server.url}${path}`, {
    method,
    redirect: "manual",
    headers: { "User-Agent": DESKTOP, "X-Forwarded-For": "203.0.113.50", ...headers },
  });
}

async function rows(server: Server) {
  return server.database.db.selectFrom("analyticsPageViews").selectAll().orderBy("id").execute();
}

describe("page views counted by the production server", () => {
  let counting: Server | undefined;
  beforeAll(async () => {
    counting = await start();
  });
  afterAll(() => stop(counting));
  const use = () => {
    if (!counting) throw new Error("server not started");
    return counting;
  };

  it("stores one row for a GET of / from a desktop browser, within two seconds", async () => {
    const response = await get(use(), "/?utm_source=newsletter&utm_medium=email&gclid=xyz", {
      Referer: "https://news.example.org/post/1?id=2",
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await vi.waitFor(async () => expect(await rows(use())).toHaveLength(1), { timeout: 2500, interval: 50 });
    const [row] = await rows(use());
    expect(row).toMatchObject({
      path: "/",
      utmSource: "newsletter",
      utmMedium: "email",
      paidClick: 1,
      referrerHost: "news.example.org",
      referrerPath: "/post/1",
      device: "desktop",
      browser: "Chrome",
      isNotFound: 0,
    });
    expect(JSON.stringify(row)).not.toContain("203.0.113.50");
  });

  it("stores nothing for DNT, GPC, HEAD, bots, prefetches, assets, feeds, the back office and the API", async () => {
    const before = (await rows(use())).length;
    const skipped: [string, Record<string, string>, string?][] = [
      ["/problem", { DNT: "1" }],
      ["/problem", { "Sec-GPC": "1" }],
      ["/problem", {}, "HEAD"],
      [
        "/problem",
        { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
      ],
      [
        "/problem",
        {
          "User-Agent":
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
        },
      ],
      ["/problem", { "Sec-Purpose": "prefetch;prerender" }],
      ["/rss.xml", {}],
      ["/sitemap.xml", {}],
      ["/robots.txt", {}],
      ["/investor-deck-pdf", {}],
      ["/admin/login", {}],
      ["/api/user", {}],
      ["/problem.data", {}],
    ];
    for (const [path, headers, method] of skipped) {
      const response = await get(use(), path, headers, method);
      await response.arrayBuffer();
    }
    // A counted view after them: once it is stored, everything before it has been flushed too.
    await (await get(use(), "/features")).arrayBuffer();
    await vi.waitFor(async () => expect((await rows(use())).length).toBeGreaterThan(before), {
      timeout: 2500,
      interval: 50,
    });
    const added = (await rows(use())).slice(before);
    expect(added.map((row) => row.path)).toEqual(["/features"]);
  });

  it("counts a 404 apart, by path, and a rendered page as well as a prerendered one", async () => {
    const before = (await rows(use())).length;
    const missing = await get(use(), "/no-such-page");
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    await vi.waitFor(async () => expect((await rows(use())).length).toBe(before + 1), {
      timeout: 2500,
      interval: 50,
    });
    expect((await rows(use())).at(-1)).toMatchObject({ path: "/no-such-page", isNotFound: 1 });
  });

  it("gives one visitor one id, and another address another id", async () => {
    const before = (await rows(use())).length;
    for (const address of ["198.51.100.1", "198.51.100.1", "198.51.100.2"])
      await (await get(use(), "/solution", { "X-Forwarded-For": address })).arrayBuffer();
    await vi.waitFor(async () => expect((await rows(use())).length).toBe(before + 3), {
      timeout: 2500,
      interval: 50,
    });
    const [a, b, c] = (await rows(use())).slice(before).map((row) => row.visitorId);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});

describe("one client changing its User-Agent on every request (issue 22)", () => {
  let counting: Server | undefined;
  beforeAll(async () => {
    counting = await start();
  });
  afterAll(() => stop(counting));

  it("adds at most 20 visitors, stores a burst of its views and cuts values to 100 characters", async () => {
    const running = counting;
    if (!running) throw new Error("server not started");
    const long = (letter: string) => letter.repeat(200);
    const requests = 300;
    for (let i = 0; i < requests; i++) {
      const response = await get(running, `/?utm_source=${i}${long("s")}&utm_campaign=${i}${long("c")}`, {
        "User-Agent": DESKTOP.replace("131.0.0.0", `131.0.${i}.0`),
        "X-Forwarded-For": "198.51.100.77",
        Referer: `https://site-${i}.example.net/${long("r")}`,
      });
      await response.arrayBuffer();
    }
    // Another address's view after them: once it is stored, everything before it has been flushed.
    await (await get(running, "/features", { "X-Forwarded-For": "198.51.100.78" })).arrayBuffer();
    await vi.waitFor(async () => expect((await rows(running)).at(-1)?.path).toBe("/features"), {
      timeout: 2500,
      interval: 50,
    });
    const stored = (await rows(running)).slice(0, -1);
    // 60 at once, then one a second: the burst and whatever the requests' few seconds refilled.
    expect(stored.length).toBeGreaterThanOrEqual(60);
    expect(stored.length).toBeLessThan(requests / 2);
    expect(new Set(stored.map((row) => row.visitorId)).size).toBeLessThanOrEqual(20);
    for (const row of stored) {
      for (const value of [row.utmSource, row.utmCampaign, row.referrerHost, row.referrerPath])
        expect(value?.length).toBeLessThanOrEqual(100);
    }
  });
});

describe("page views and the server's life", () => {
  it("writes the views still buffered when the server shuts down cleanly", async () => {
    const running = await start();
    try {
      await (await get(running, "/blog")).arrayBuffer();
      // Straight to SIGTERM, before the one-second flush.
      await running.server.stop();
      expect((await rows(running)).map((row) => row.path)).toEqual(["/blog"]);
    } finally {
      await stop(running);
    }
  });

  it("counts nothing with ANALYTICS=off", async () => {
    const running = await start({ ANALYTICS: "off" });
    try {
      await (await get(running, "/")).arrayBuffer();
      await running.server.stop();
      expect(await rows(running)).toEqual([]);
    } finally {
      await stop(running);
    }
  });
});
