import pg from "pg";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { isPostgres } from "#app/db/migration-helpers.ts";
import { createDailySalts } from "#app/features/analytics/daily-salt.server.ts";
import { createLeadAttribution } from "#app/features/analytics/lead-attribution.server.ts";
import { findLeadListItem } from "#app/features/leads/lead-admin.server.ts";
import { suppressionKey } from "#app/features/leads/lead-erasure.server.ts";
import { findLead } from "#app/features/leads/lead-repository.server.ts";
import { createLeadService, type LeadChangeHook } from "#app/features/leads/lead-service.server.ts";
import { issueTimeToken } from "#app/features/leads/time-token.server.ts";
import { queueWebhookEvent, WEBHOOK_DELIVERY } from "#app/features/webhooks/webhook-store.server.ts";
import { UNKNOWN_CHANNEL } from "#app/lib/attribution.ts";
import { LEAD_NOTIFICATION } from "#app/lib/outbox/outbox.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";

// Issue 32 point 17: each statement of a lead's transaction is a round trip to PostgreSQL that holds
// a pooled connection, so storing a website lead sends at most four (ac0321c's count): `begin`, the
// erasure/webhooks lookup with the rate limit's first hit, the lead's insert with its attribution
// row, `commit`. Every statement any pg client sends is recorded (the spy is installed before the
// test database opens, so every pooled client sends through it).
const sent: string[] = [];
/** The prepared statement's name each statement was sent under (undefined: parsed and planned anew). */
const names: (string | undefined)[] = [];
const query = pg.Client.prototype.query;
vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
  const [config] = args;
  sent.push(typeof config === "string" ? config : String((config as { text?: unknown })?.text ?? ""));
  names.push(typeof config === "object" ? (config as { name?: string } | null)?.name : undefined);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as never);

const SECRET = "test-secret-test-secret-test-secret";
const NOW = new Date("2026-11-28T10:00:00.000Z");
const HOST = "clausebridge.test";

const demo = {
  fullName: "Amara Okafor",
  email: "amara@okafor-build.co.uk",
  company: "Okafor Build Ltd",
  phone: "+44 7700 900123",
  message: "We manage 40 subcontracts per project.",
};

describeEachDatabase("storing a website lead", (use) => {
  let address = 0;
  let stops: (() => Promise<void>)[] = [];
  // One cache of the day's salt for the process, as services.server.ts has.
  let salts: ReturnType<typeof createDailySalts>;

  /** The lead service as services.server.ts wires it: attribution, webhooks, the address limit. */
  function service({ limit = 10, notify = false } = {}) {
    const db = use().db;
    const attribution = createLeadAttribution({
      db,
      salts,
      enabled: true,
      settleMs: 3_600_000,
    });
    stops.push(() => attribution.stop());
    const onLeadChange: LeadChangeHook = (trx, change) =>
      queueWebhookEvent(trx, {
        type: change.type,
        webhooks: change.webhooks,
        lead: () => findLeadListItem(trx, change.leadId),
        occurredAt: change.occurredAt,
      });
    return createLeadService({
      db,
      secret: SECRET,
      rateLimiter: createRateLimiter(db, { limit, windowMs: 600_000 }),
      notify,
      onLeadChange,
      attribution,
    });
  }
  const context = (clientAddress = `192.0.2.${++address}`) => ({
    clientAddress,
    timeToken: issueTimeToken(SECRET, NOW.getTime() - 60_000),
    sourcePage: "/demo",
    source: "form" as const,
    headers: new Headers({ host: HOST, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0" }),
    protocol: "http:",
    now: NOW,
  });

  /** The statements sent while `work` ran. */
  async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const from = sent.length;
    const result = await work();
    return { result, statements: sent.slice(from) };
  }

  beforeEach(async () => {
    const db = use().db;
    salts = createDailySalts(db, () => NOW);
    for (const table of ["webhookDeliveries", "webhooks", "outbox", "leads", "rateLimits"] as const)
      await db.deleteFrom(table).execute();
    await db.deleteFrom("erasureSuppressions").execute();
    // The day's salt and a pooled connection exist before the counted submission, as on a live site.
    await service().submit({ ...demo, email: "warm@example.com" }, context());
  });
  afterEach(async () => {
    for (const stop of stops) await stop();
    stops = [];
  });

  it("sends at most four statements to PostgreSQL and stores the lead, its attribution and its count", async () => {
    const db = use().db;
    const before = await db
      .selectFrom("leadCounts")
      .select((eb) => eb.fn.sum<number>("count").as("n"))
      .executeTakeFirst();
    const from = names.length;
    const { result, statements } = await statementsOf(() => service().submit(demo, context("192.0.2.200")));
    if (result.kind !== "stored") throw new Error(`not stored: ${JSON.stringify(result)}`);
    if (isPostgres(db)) {
      expect(statements, statements.join("\n---\n")).toHaveLength(4);
      // The lookup and the insert are prepared once per connection, not parsed and planned per lead:
      // that was about half of PostgreSQL's CPU per lead (app/db/prepared-statements.ts).
      const [, lookup, insert] = names.slice(from);
      expect(lookup).toMatch(/^clausebridge_\d+$/);
      expect(insert).toMatch(/^clausebridge_\d+$/);
      expect(insert).not.toBe(lookup);
    }
    expect(await findLead(db, result.id)).toMatchObject({
      ...demo,
      source: "form",
      sourcePage: "/demo",
      status: "new",
      isSpam: false,
      createdAt: NOW.toISOString(),
    });
    const attribution = await db
      .selectFrom("leadAttributions")
      .selectAll()
      .where("leadId", "=", result.id)
      .executeTakeFirstOrThrow();
    expect(attribution).toMatchObject({
      status: "pending",
      submittedAt: NOW.toISOString(),
      channel: null,
      resolvedAt: null,
    });
    expect(attribution.visitorId).toMatch(/\S{16,}/);
    const after = await db
      .selectFrom("leadCounts")
      .select((eb) => eb.fn.sum<number>("count").as("n"))
      .executeTakeFirst();
    expect(Number(after?.n) - Number(before?.n)).toBe(1);
    // The address's first hit of the window is counted in its row.
    const limits = await db.selectFrom("rateLimits").select(["key", "hits"]).execute();
    expect(limits).toHaveLength(2);
    expect(limits.map((row) => JSON.parse(row.hits))).toEqual([[NOW.getTime()], [NOW.getTime()]]);
    expect(await db.selectFrom("outbox").selectAll().execute()).toEqual([]);
  });

  it("stores an opted-out visitor's lead with an Unknown attribution, settled at once", async () => {
    const db = use().db;
    const optedOut = { ...context(), headers: new Headers({ host: HOST, "sec-gpc": "1" }) };
    const { result, statements } = await statementsOf(() => service().submit(demo, optedOut));
    if (result.kind !== "stored") throw new Error(`not stored: ${JSON.stringify(result)}`);
    if (isPostgres(db)) expect(statements, statements.join("\n---\n")).toHaveLength(4);
    expect(
      await db.selectFrom("leadAttributions").selectAll().where("leadId", "=", result.id).executeTakeFirst(),
    ).toMatchObject({
      status: "unknown",
      visitorId: null,
      submittedAt: NOW.toISOString(),
      channel: UNKNOWN_CHANNEL,
      resolvedAt: NOW.toISOString(),
      landingPage: null,
    });
  });

  it("counts the address's later hits, refuses past the limit and stores nothing then", async () => {
    const db = use().db;
    const submit = service({ limit: 2 });
    const first = await submit.submit(demo, context("192.0.2.201"));
    const second = await submit.submit({ ...demo, email: "second@example.com" }, context("192.0.2.201"));
    const third = await submit.submit({ ...demo, email: "third@example.com" }, context("192.0.2.201"));
    expect([first.kind, second.kind, third.kind]).toEqual(["stored", "stored", "rate-limited"]);
    const leads = await db.selectFrom("leads").select("email").orderBy("id").execute();
    expect(leads.map((lead) => lead.email)).toEqual(["warm@example.com", demo.email, "second@example.com"]);
    const attributions = await db.selectFrom("leadAttributions").select("leadId").execute();
    expect(attributions).toHaveLength(3);
  });

  it("queues the webhooks' deliveries and the notification, and marks a lead from an erased person", async () => {
    const db = use().db;
    await db
      .insertInto("webhooks")
      .values([
        {
          url: "https://hooks.example.com/a",
          events: JSON.stringify(["lead.created"]),
          secret: "whsec_a",
          createdAt: NOW.toISOString(),
          createdBy: "admin",
        },
        {
          url: "https://hooks.example.com/b",
          events: JSON.stringify(["lead.updated"]),
          secret: "whsec_b",
          createdAt: NOW.toISOString(),
          createdBy: "admin",
        },
      ])
      .execute();
    await db
      .insertInto("erasureSuppressions")
      .values({
        emailHmac: suppressionKey(SECRET, demo.email),
        erasedAt: "2026-10-01T00:00:00.000Z",
        reason: "asked",
      })
      .execute();
    const result = await service({ notify: true }).submit(demo, context());
    if (result.kind !== "stored") throw new Error(`not stored: ${JSON.stringify(result)}`);
    expect(result.queued).toBe(true);
    const deliveries = await db.selectFrom("webhookDeliveries").select(["webhookId", "eventType"]).execute();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.eventType).toBe("lead.created");
    const outbox = await db.selectFrom("outbox").select(["kind", "payload"]).execute();
    expect(outbox.map((row) => row.kind).sort()).toEqual([LEAD_NOTIFICATION, WEBHOOK_DELIVERY].sort());
    expect(JSON.parse(outbox.find((row) => row.kind === LEAD_NOTIFICATION)?.payload ?? "{}")).toEqual({
      leadId: result.id,
    });
    const events = await db.selectFrom("leadEvents").select("type").where("leadId", "=", result.id).execute();
    expect(events.map((event) => event.type)).toContain("returned_after_erasure");
    expect(
      await db
        .selectFrom("leadAttributions")
        .select("status")
        .where("leadId", "=", result.id)
        .executeTakeFirst(),
    ).toEqual({ status: "pending" });
  });
});
