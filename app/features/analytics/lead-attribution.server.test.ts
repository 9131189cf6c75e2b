import { afterEach, describe, expect, it, vi } from "vitest";
import { UNKNOWN_CHANNEL } from "#app/lib/attribution.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { createDailySalts } from "./daily-salt.server.ts";
import { createLeadAttribution, type LeadVisit, SETTLE_MS } from "./lead-attribution.server.ts";
import { createPageViewCounter } from "./page-view-counter.server.ts";

// Attribution on every lead (issue 12): a lead is linked to its visitor's first page view of the
// UTC day, across instances, once the views have settled; otherwise it is Unknown, never a guess.

const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const HOST = "www.clausebridge.test";
const ADDRESS = "203.0.113.77";

/** A clock the test moves; every component of one "instance" reads it. */
function clock(start: string) {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    set: (iso: string) => {
      at = Date.parse(iso);
    },
    advance: (ms: number) => {
      at += ms;
    },
  };
}

const visitHeaders = (headers: Record<string, string> = {}) =>
  new Headers({ host: HOST, "user-agent": DESKTOP, ...headers });

describeEachDatabase("lead attribution", (use) => {
  afterEach(async () => {
    await use().db.deleteFrom("leadAttributions").execute();
    await use().db.deleteFrom("leads").execute();
    await use().db.deleteFrom("analyticsPageViews").execute();
    await use().db.deleteFrom("analyticsSalts").execute();
  });

  /** One app instance: its own salts cache, page-view counter and attribution, on the shared database. */
  function instance(time: ReturnType<typeof clock>, { enabled = true } = {}) {
    const salts = createDailySalts(use().db, time.now);
    const pageViews = createPageViewCounter({
      db: use().db,
      enabled,
      salts,
      now: time.now,
      flushIntervalMs: 60_000,
    });
    const attribution = createLeadAttribution({ db: use().db, salts, enabled, now: time.now });
    return {
      pageViews,
      attribution,
      /** A GET of `target` by the visitor at the clock's time, as the HTTP server reports it. */
      view(
        target: string,
        {
          address = ADDRESS,
          userAgent = DESKTOP,
          referer,
        }: { address?: string; userAgent?: string; referer?: string } = {},
      ) {
        const url = new URL(target, `http://${HOST}`);
        const headers: Record<string, string> = { host: HOST, "user-agent": userAgent };
        if (referer) headers.referer = referer;
        pageViews.count({ method: "GET", url: `${url.pathname}${url.search}`, headers }, url, {
          notFound: false,
          clientAddress: address,
        });
      },
      /** Stores a lead the way the lead service does: the attribution row in the lead's transaction. */
      async submit(visit: Partial<LeadVisit> = {}): Promise<number> {
        const write = await attribution.begin(
          { clientAddress: ADDRESS, headers: visitHeaders(), protocol: "http:", ...visit },
          time.now(),
        );
        const id = await use()
          .db.transaction()
          .execute(async (trx) => {
            const row = await trx
              .insertInto("leads")
              .values(leadRow({ createdAt: time.now().toISOString(), updatedAt: time.now().toISOString() }))
              .returning("id")
              .executeTakeFirstOrThrow();
            await write(trx, Number(row.id));
            return Number(row.id);
          });
        attribution.stored();
        return id;
      },
    };
  }

  const stored = (leadId: number) =>
    use()
      .db.selectFrom("leadAttributions")
      .selectAll()
      .where("leadId", "=", leadId)
      .executeTakeFirstOrThrow();

  it("links a lead to the visitor's first view of the day once the views have settled", async () => {
    const time = clock("2026-11-25T09:00:00.000Z");
    const site = instance(time);
    site.view("/?utm_source=newsletter&utm_medium=email&utm_campaign=launch&utm_term=clm&utm_content=hero", {
      referer: "https://mail.example.net/inbox?user=someone",
    });
    time.advance(30_000);
    site.view("/features", { referer: `http://${HOST}/` });
    time.advance(30_000);
    site.view("/demo", { referer: `http://${HOST}/features` });
    // Another visitor, and the same address with another browser: other visitors.
    site.view("/invest", { address: "198.51.100.9" });
    site.view("/problem", { userAgent: DESKTOP.replace("131", "130") });
    await site.pageViews.flush();
    time.advance(12_000);
    const leadId = await site.submit();
    // The thank-you page, after the submission: not a page viewed before submitting.
    time.advance(1000);
    site.view("/demo?submitted=demo");
    await site.pageViews.flush();

    const pending = await stored(leadId);
    expect(pending).toMatchObject({ status: "pending", channel: null, landingPage: null });
    expect(pending.visitorId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(pending)).not.toContain(ADDRESS);
    // Not before the views of every instance have had time to be written.
    expect(await site.attribution.settleDue()).toBe(0);

    time.advance(SETTLE_MS);
    expect(await site.attribution.settleDue()).toBe(1);
    expect(await stored(leadId)).toMatchObject({
      status: "linked",
      visitorId: null,
      landingPage: "/",
      referrerHost: "mail.example.net",
      referrerPath: "/inbox",
      channel: "Email",
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "launch",
      utmTerm: "clm",
      utmContent: "hero",
      landedAt: "2026-11-25T09:00:00.000Z",
      pagesBeforeSubmit: 3,
      secondsToSubmit: 72,
    });
    // Final: another pass changes nothing.
    time.advance(60_000);
    expect(await site.attribution.settleDue()).toBe(0);
  });

  it("links a lead stored by one instance to views another instance counted and flushed", async () => {
    const timeA = clock("2026-11-25T10:00:00.000Z");
    const timeB = clock("2026-11-25T10:00:00.000Z");
    const a = instance(timeA);
    const b = instance(timeB);
    b.view("/blog?utm_source=linkedin&utm_medium=social&utm_campaign=winter");
    timeB.advance(20_000);
    b.view("/demo");
    timeA.advance(25_000);
    const leadId = await a.submit();
    // B writes its views after A stored the lead, within the settling time.
    await b.pageViews.flush();
    timeA.advance(SETTLE_MS);
    expect(await a.attribution.settleDue()).toBe(1);
    expect(await stored(leadId)).toMatchObject({
      status: "linked",
      landingPage: "/blog",
      channel: "Social",
      utmCampaign: "winter",
      pagesBeforeSubmit: 2,
      secondsToSubmit: 25,
    });
  });

  it("says Unknown, never a guess: no view that day, views of yesterday, or only views after the lead", async () => {
    const time = clock("2026-11-25T23:59:50.000Z");
    const site = instance(time);
    site.view("/?utm_campaign=late");
    await site.pageViews.flush();
    // Past midnight (UTC): a new day, a new salt, another visitor id.
    time.set("2026-11-26T00:00:10.000Z");
    const nextDay = await site.submit();
    const noViews = await site.submit({ clientAddress: "192.0.2.200" });
    const viewedAfter = await site.submit({ clientAddress: "192.0.2.201" });
    time.advance(1000);
    site.view("/demo", { address: "192.0.2.201" });
    await site.pageViews.flush();
    time.advance(SETTLE_MS);
    expect(await site.attribution.settleDue()).toBe(3);
    for (const leadId of [nextDay, noViews, viewedAfter])
      expect(await stored(leadId)).toMatchObject({
        status: "unknown",
        channel: UNKNOWN_CHANNEL,
        visitorId: null,
        landingPage: null,
        pagesBeforeSubmit: null,
      });
  });

  it("makes no visitor id for a visitor who opted out (GPC, DNT), nor with counting off: Unknown at once", async () => {
    const time = clock("2026-11-25T11:00:00.000Z");
    const site = instance(time);
    site.view("/?utm_medium=email");
    await site.pageViews.flush();
    const gpc = await site.submit({ headers: visitHeaders({ "sec-gpc": "1" }) });
    const dnt = await site.submit({ headers: visitHeaders({ dnt: "1" }) });
    const off = await instance(time, { enabled: false }).submit();
    for (const leadId of [gpc, dnt, off])
      expect(await stored(leadId)).toMatchObject({
        status: "unknown",
        channel: UNKNOWN_CHANNEL,
        visitorId: null,
      });
  });

  it("settles a lead by itself once the settling time has passed, with nobody reading it", async () => {
    const salts = createDailySalts(use().db);
    const pageViews = createPageViewCounter({ db: use().db, enabled: true, salts });
    const attribution = createLeadAttribution({ db: use().db, salts, enabled: true, settleMs: 200 });
    const url = new URL("/?utm_source=newsletter&utm_medium=email&utm_campaign=launch", `http://${HOST}`);
    pageViews.count(
      {
        method: "GET",
        url: "/?utm_source=newsletter&utm_medium=email&utm_campaign=launch",
        headers: { host: HOST, "user-agent": DESKTOP },
      },
      url,
      {
        notFound: false,
        clientAddress: ADDRESS,
      },
    );
    await pageViews.flush();
    const write = await attribution.begin(
      { clientAddress: ADDRESS, headers: visitHeaders(), protocol: "http:" },
      new Date(),
    );
    const leadId = await use()
      .db.transaction()
      .execute(async (trx) => {
        const row = await trx.insertInto("leads").values(leadRow()).returning("id").executeTakeFirstOrThrow();
        await write(trx, Number(row.id));
        return Number(row.id);
      });
    attribution.stored();
    try {
      await vi.waitFor(async () => expect((await stored(leadId)).status).toBe("linked"), {
        timeout: 3000,
        interval: 50,
      });
      expect(await stored(leadId)).toMatchObject({
        channel: "Email",
        utmCampaign: "launch",
        pagesBeforeSubmit: 1,
      });
    } finally {
      attribution.stop();
      await pageViews.stop();
    }
  });

  it("settles a lead whose instance went away, from any other instance", async () => {
    const time = clock("2026-11-25T12:00:00.000Z");
    const gone = instance(time);
    gone.view("/solution", { referer: "https://www.google.co.uk/" });
    await gone.pageViews.flush();
    time.advance(5000);
    const leadId = await gone.submit();
    gone.attribution.stop();
    time.advance(SETTLE_MS);
    expect(await instance(time).attribution.settleDue()).toBe(1);
    expect(await stored(leadId)).toMatchObject({
      status: "linked",
      channel: "Organic search",
      referrerHost: "www.google.co.uk",
      landingPage: "/solution",
    });
  });
});

describe("SETTLE_MS", () => {
  it("leaves time for every instance's flush (within 2 s) and settles within 5 s", () => {
    expect(SETTLE_MS).toBeGreaterThanOrEqual(2000);
    expect(SETTLE_MS).toBeLessThan(5000);
  });
});
