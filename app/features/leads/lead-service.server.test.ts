import { beforeEach, describe, expect, it } from "vitest";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { countLeads, findLead } from "./lead-repository.server.ts";
import { INVESTOR_MESSAGE, POLICY_VERSION, PRIVACY_NOTICE_VERSION } from "./lead-schema.ts";
import { createLeadService } from "./lead-service.server.ts";
import { issueTimeToken, MIN_FILL_MS } from "./time-token.server.ts";

const SECRET = "test-secret-test-secret-test-secret";
const NOW = new Date("2026-11-21T10:00:00.000Z");
const humanToken = () => issueTimeToken(SECRET, NOW.getTime() - 60_000);

const demo = {
  fullName: "Amara Okafor",
  email: "amara@okafor-build.co.uk",
  company: "Okafor Build Ltd",
  phone: "+44 7700 900123",
  message: "We manage 40 subcontracts per project.",
};

const investor = {
  fullName: "Jonas Berg",
  company: "Nordic Angels",
  email: "jonas@nordicangels.se",
  phone: "+46 70 123",
  message: INVESTOR_MESSAGE,
  requestType: "investor",
  investorType: { angel: true, vc: false, introducer: false, other: true },
  otherDetails: "Family office",
};

describeEachDatabase("lead service", (use) => {
  let address = 0;
  // Each test its own client address, so rate limits of one test do not leak into another.
  const context = (overrides = {}) => ({
    clientAddress: `192.0.2.${++address}`,
    timeToken: humanToken(),
    sourcePage: "/demo",
    now: NOW,
    ...overrides,
  });
  const service = (limit = 100) =>
    createLeadService({
      db: use().db,
      secret: SECRET,
      rateLimiter: createRateLimiter(use().db, { limit, windowMs: 600_000 }),
      notify: true,
    });

  beforeEach(async () => {
    await use().db.deleteFrom("outbox").execute();
    await use().db.deleteFrom("leads").execute();
    await use().db.deleteFrom("rateLimits").execute();
  });

  it("stores a demo request exactly as entered, with status 'new' and a queued notification", async () => {
    const result = await service().submit({ ...demo, fullName: "  Amara Okafor  " }, context());
    expect(result).toMatchObject({ kind: "stored", spam: false });
    if (result.kind !== "stored") return;
    const lead = await findLead(use().db, result.id);
    expect(lead).toMatchObject({
      requestType: "demo",
      fullName: "Amara Okafor",
      email: demo.email,
      company: demo.company,
      phone: demo.phone,
      message: demo.message,
      status: "new",
      sourcePage: "/demo",
      privacyNoticeVersion: PRIVACY_NOTICE_VERSION,
      // The latest change of the policy's "Changes" the visitor was shown (issue 12).
      policyVersion: POLICY_VERSION,
      isSpam: false,
      spamReason: null,
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      investorType: { angel: false, vc: false, introducer: false, other: false },
    });
    const outbox = await use().db.selectFrom("outbox").selectAll().execute();
    expect(outbox).toHaveLength(1);
    expect(JSON.parse(outbox[0]?.payload ?? "{}")).toEqual({ leadId: result.id });
  });

  it("stores an investor submission with its flags, details and the fixed message", async () => {
    const result = await service().submit(investor, context());
    if (result.kind !== "stored") throw new Error(`not stored: ${JSON.stringify(result)}`);
    const lead = await findLead(use().db, result.id);
    expect(lead).toMatchObject({
      requestType: "investor",
      message: INVESTOR_MESSAGE,
      investorType: { angel: true, vc: false, introducer: false, other: true },
      otherDetails: "Family office",
    });
  });

  it("keeps the message an integration sends with an investor lead (issue 22)", async () => {
    const result = await service().submit(
      { ...investor, message: "Series A only.\nCall after 3pm." },
      context(),
    );
    if (result.kind !== "stored") throw new Error(`not stored: ${JSON.stringify(result)}`);
    expect(await findLead(use().db, result.id)).toMatchObject({
      requestType: "investor",
      message: "Series A only.\nCall after 3pm.",
    });
  });

  it("keeps markup and quotes as text (it is escaped where shown, not altered here)", async () => {
    const tricky = `<script>alert("x")</script> O'Brien & Sons; DROP TABLE leads;--`;
    const result = await service().submit({ ...demo, company: tricky.slice(0, 160) }, context());
    if (result.kind !== "stored") throw new Error("not stored");
    expect((await findLead(use().db, result.id))?.company).toBe(tricky.slice(0, 160));
  });

  it("refuses invalid input with the spec's messages and stores nothing", async () => {
    const result = await service().submit({ ...demo, email: "not-an-email", phone: "123" }, context());
    expect(result).toEqual({
      kind: "invalid",
      errors: { email: "Please enter a valid email address", phone: "Please enter a valid phone number" },
    });
    expect(await countLeads(use().db, { includeSpam: true })).toBe(0);
  });

  it("holds a filled honeypot as spam, records why, queues no email and keeps it out of the count", async () => {
    const result = await service().submit({ ...demo, _gotcha: "http://spam.example" }, context());
    expect(result).toMatchObject({ kind: "stored", spam: true });
    if (result.kind !== "stored") return;
    const lead = await findLead(use().db, result.id);
    expect(lead).toMatchObject({
      isSpam: true,
      spamLevel: "held",
      spamScore: 100,
      spamReason: "honeypot field filled in",
      spamReasons: ["honeypot field filled in (+100)"],
    });
    expect(await countLeads(use().db)).toBe(0);
    expect(await countLeads(use().db, { includeSpam: true })).toBe(1);
    expect(await use().db.selectFrom("outbox").selectAll().execute()).toHaveLength(0);
    const events = await use().db.selectFrom("leadEvents").select(["type", "actorName"]).execute();
    expect(events).toEqual([{ type: "spam_held", actorName: null }]);
  });

  it.each([
    ["no time token", undefined, "no page cookie (sent without visiting the site) (+10)"],
    ["a forged token", `${NOW.getTime() - 60_000}.AAAAAAAAAAAAAAAAAAAAAA`, "forged page cookie (+20)"],
    [
      "a token issued a second ago",
      issueTimeToken(SECRET, NOW.getTime() - 1000),
      "sent 1000 ms after the first page view (+15)",
    ],
    [
      "a token three days old",
      issueTimeToken(SECRET, NOW.getTime() - 3 * 86_400_000),
      "page cookie expired (+5)",
    ],
  ])(
    "keeps a clean lead with %s in the list, marked for review, and notifies sales",
    async (_name, timeToken, reason) => {
      const result = await service().submit(demo, context({ timeToken }));
      expect(result).toMatchObject({ kind: "stored", spam: false });
      if (result.kind !== "stored") return;
      expect(await findLead(use().db, result.id)).toMatchObject({
        isSpam: false,
        spamLevel: "review",
        spamReasons: [reason],
      });
      expect(await countLeads(use().db)).toBe(1);
      expect(await use().db.selectFrom("outbox").selectAll().execute()).toHaveLength(1);
    },
  );

  it("marks a link in the name for review when it is the only signal", async () => {
    const result = await service().submit({ ...demo, fullName: "Cheap loans www.loans.example" }, context());
    if (result.kind !== "stored") throw new Error("not stored");
    expect(await findLead(use().db, result.id)).toMatchObject({ isSpam: false, spamLevel: "review" });
  });

  it("holds a content signal that comes with another signal", async () => {
    const linkAndNoCookie = await service().submit(
      { ...demo, fullName: "Visit https://pills.example now" },
      context({ timeToken: undefined }),
    );
    const markupAndLink = await service().submit(
      { ...demo, fullName: '<a href="https://x.example">Win</a>' },
      context(),
    );
    for (const result of [linkAndNoCookie, markupAndLink]) {
      expect(result).toMatchObject({ kind: "stored", spam: true });
      if (result.kind !== "stored") return;
      expect((await findLead(use().db, result.id))?.spamLevel).toBe("held");
    }
    expect(await use().db.selectFrom("outbox").selectAll().execute()).toHaveLength(0);
  });

  it("never holds a clean submission, whatever its timing, cookie or rate", async () => {
    const busy = service(4);
    const client = context({ timeToken: undefined });
    for (let i = 0; i < 4; i++) {
      const result = await busy.submit({ ...demo, message: "Three links: https://a.example" }, client);
      expect(result).toMatchObject({ kind: "stored", spam: false });
    }
    const last = await use()
      .db.selectFrom("leads")
      .select("spamSignals")
      .orderBy("id", "desc")
      .executeTakeFirst();
    expect(JSON.parse(last?.spamSignals ?? "[]").map((signal: { signal: string }) => signal.signal)).toEqual([
      "token-missing",
      "rate",
    ]);
  });

  it("accepts a token just old enough", async () => {
    const result = await service().submit(
      demo,
      context({ timeToken: issueTimeToken(SECRET, NOW.getTime() - MIN_FILL_MS) }),
    );
    expect(result).toMatchObject({ kind: "stored", spam: false });
  });

  it("rate-limits one client after the limit and tells it when to retry, storing nothing more", async () => {
    const limited = service(3);
    const client = context();
    for (let i = 0; i < 3; i++) expect((await limited.submit(demo, client)).kind).toBe("stored");
    const refused = await limited.submit(demo, client);
    expect(refused).toEqual({ kind: "rate-limited", retryAfterSeconds: 600 });
    expect(await countLeads(use().db)).toBe(3);
    // Another client is unaffected; the same client may send again in the next window.
    expect((await limited.submit(demo, context())).kind).toBe("stored");
    const later = await limited.submit(demo, { ...client, now: new Date(NOW.getTime() + 600_000) });
    expect(later.kind).toBe("stored");
  });

  it("counts concurrent hits exactly (no lost updates)", async () => {
    const limited = service(20);
    const client = context();
    const results = await Promise.all(Array.from({ length: 30 }, () => limited.submit(demo, client)));
    expect(results.filter((result) => result.kind === "stored")).toHaveLength(20);
    expect(results.filter((result) => result.kind === "rate-limited")).toHaveLength(10);
  });

  it("counts hits that reached the row lock out of order (another instance got there first)", async () => {
    const limited = service(3);
    const client = context();
    // Each request takes its time before waiting for the lock, so a later one may commit first.
    const at = (seconds: number) => ({ ...client, now: new Date(NOW.getTime() + seconds * 1000) });
    const results = [];
    for (const seconds of [5, 4, 3, 2, 1]) results.push((await limited.submit(demo, at(seconds))).kind);
    expect(results).toEqual(["stored", "stored", "stored", "rate-limited", "rate-limited"]);
    expect(await countLeads(use().db)).toBe(3);
  });

  it("checks no time token when the trap is off (the Vite dev server sets no page cookie)", async () => {
    const devService = createLeadService({
      db: use().db,
      secret: SECRET,
      rateLimiter: createRateLimiter(use().db, { limit: 100, windowMs: 600_000 }),
      notify: false,
      timeTrap: false,
    });
    const result = await devService.submit(demo, context({ timeToken: undefined }));
    if (result.kind !== "stored") throw new Error("not stored");
    expect((await findLead(use().db, result.id))?.spamLevel).toBe("clean");
    expect(await devService.submit({ ...demo, _gotcha: "x" }, context())).toMatchObject({ spam: true });
  });

  it("limits over any window, not per fixed window: 10 per 10 minutes never lets 20 through", async () => {
    const limited = service(10);
    const client = context();
    const at = (minutes: number) => ({ ...client, now: new Date(NOW.getTime() + minutes * 60_000) });
    // Five at 0:00 and five at 4:00 fill the limit …
    for (let i = 0; i < 5; i++) expect((await limited.submit(demo, at(0))).kind).toBe("stored");
    for (let i = 0; i < 5; i++) expect((await limited.submit(demo, at(4))).kind).toBe("stored");
    // … so at 9:30 (a fixed window would have restarted at 5:00 or 10:00) nothing more gets in,
    expect(await limited.submit(demo, at(9.5))).toEqual({ kind: "rate-limited", retryAfterSeconds: 30 });
    // at 10:00 the first five have left the window and five fit again, and no more until 14:00.
    for (let i = 0; i < 5; i++) expect((await limited.submit(demo, at(10))).kind).toBe("stored");
    expect(await limited.submit(demo, at(13))).toMatchObject({ kind: "rate-limited", retryAfterSeconds: 60 });
    expect(await countLeads(use().db)).toBe(15);
  });

  describe("with an API key", () => {
    const keyed = (limit: number) =>
      createLeadService({
        db: use().db,
        secret: SECRET,
        rateLimiter: createRateLimiter(use().db, { limit: 1, windowMs: 600_000 }),
        apiKeyRateLimiter: createRateLimiter(use().db, { limit, windowMs: 60_000 }),
        notify: true,
      });
    const apiKey = { id: 7, name: "Partner CRM" };

    beforeEach(async () => {
      await use().db.deleteFrom("apiKeys").execute();
      await use()
        .db.insertInto("apiKeys")
        .values({
          id: 7,
          name: "Partner CRM",
          keyPrefix: "cbk_abcdef",
          keyHash: "x".repeat(64),
          createdByUserId: null,
          createdByUsername: "admin",
          createdAt: NOW.toISOString(),
          lastUsedAt: null,
          revokedAt: null,
          revokedByUsername: null,
        })
        .execute();
    });

    it("skips the time trap and the per-address limit, records the key as the source and its last use", async () => {
      const service = keyed(100);
      const client = context({ timeToken: undefined, sourcePage: null, apiKey });
      for (let i = 0; i < 3; i++) {
        const result = await service.submit(demo, client);
        if (result.kind !== "stored") throw new Error(`not stored: ${JSON.stringify(result)}`);
        expect(await findLead(use().db, result.id)).toMatchObject({
          source: "Partner CRM",
          spamLevel: "clean",
          isSpam: false,
        });
      }
      const key = await use().db.selectFrom("apiKeys").select("lastUsedAt").executeTakeFirstOrThrow();
      expect(key.lastUsedAt).toBe(NOW.toISOString());
    });

    it("has a limit of its own per key", async () => {
      const service = keyed(2);
      const client = context({ apiKey });
      expect((await service.submit(demo, client)).kind).toBe("stored");
      expect((await service.submit(demo, { ...client, clientAddress: "198.51.100.9" })).kind).toBe("stored");
      expect(await service.submit(demo, client)).toEqual({ kind: "rate-limited", retryAfterSeconds: 60 });
    });

    it("still holds a honeypot submission", async () => {
      const result = await keyed(100).submit({ ...demo, _gotcha: "filled" }, context({ apiKey }));
      expect(result).toMatchObject({ kind: "stored", spam: true });
    });
  });
});
