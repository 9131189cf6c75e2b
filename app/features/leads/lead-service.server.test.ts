import { beforeEach, expect, it } from "vitest";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { countLeads, findLead } from "./lead-repository.server.ts";
import { INVESTOR_MESSAGE, PRIVACY_NOTICE_VERSION } from "./lead-schema.ts";
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
    const result = await service().submit({ ...investor, message: "ignored" }, context());
    if (result.kind !== "stored") throw new Error(`not stored: ${JSON.stringify(result)}`);
    const lead = await findLead(use().db, result.id);
    expect(lead).toMatchObject({
      requestType: "investor",
      message: INVESTOR_MESSAGE,
      investorType: { angel: true, vc: false, introducer: false, other: true },
      otherDetails: "Family office",
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

  it("flags a filled honeypot as spam, stores it, queues no email and keeps it out of the count", async () => {
    const result = await service().submit({ ...demo, _gotcha: "http://spam.example" }, context());
    expect(result).toMatchObject({ kind: "stored", spam: true });
    if (result.kind !== "stored") return;
    expect((await findLead(use().db, result.id))?.spamReason).toBe("honeypot field filled in");
    expect(await countLeads(use().db)).toBe(0);
    expect(await countLeads(use().db, { includeSpam: true })).toBe(1);
    expect(await use().db.selectFrom("outbox").selectAll().execute()).toHaveLength(0);
  });

  it.each([
    ["no time token", undefined, "time trap: no time token"],
    ["a forged token", `${NOW.getTime() - 60_000}.AAAAAAAAAAAAAAAAAAAAAA`, "time trap: forged time token"],
    [
      "a token issued a second ago",
      issueTimeToken(SECRET, NOW.getTime() - 1000),
      "time trap: sent 1000 ms after the page loaded",
    ],
    [
      "a token three days old",
      issueTimeToken(SECRET, NOW.getTime() - 3 * 86_400_000),
      "time trap: time token expired",
    ],
  ])("flags %s as spam", async (_name, timeToken, reason) => {
    const result = await service().submit(demo, context({ timeToken }));
    if (result.kind !== "stored") throw new Error("not stored");
    expect(result.spam).toBe(true);
    expect((await findLead(use().db, result.id))?.spamReason).toBe(reason);
  });

  it("checks no time token when the trap is off (the Vite dev server sets no page cookie)", async () => {
    const devService = createLeadService({
      db: use().db,
      secret: SECRET,
      rateLimiter: createRateLimiter(use().db, { limit: 100, windowMs: 600_000 }),
      notify: false,
      timeTrap: false,
    });
    expect(await devService.submit(demo, context({ timeToken: undefined }))).toMatchObject({ spam: false });
    expect(await devService.submit({ ...demo, _gotcha: "x" }, context())).toMatchObject({ spam: true });
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
});
