import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { parseEnv } from "#app/env.server.ts";
import { createUser } from "#app/features/auth/users.server.ts";
import { listLeads } from "#app/features/leads/lead-admin.server.ts";
import { createLeadService } from "#app/features/leads/lead-service.server.ts";
import { issueTimeToken } from "#app/features/leads/time-token.server.ts";
import {
  keyOfShownSecret,
  startTestReceiver,
  type TestReceiver,
  verifyClausebridgeSignature,
  verifyLikeAReceiver,
  verifyWithStandardWebhooks,
} from "#app/features/webhooks/testing/test-receiver.ts";
import { createWebhookSender } from "#app/features/webhooks/webhook-sender.server.ts";
import { createWebhook } from "#app/features/webhooks/webhook-service.server.ts";
import {
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  pruneDeliveries,
  queueTestEvent,
  queueWebhookEvent,
  rotateWebhookSecret,
  WEBHOOK_DELIVERY,
} from "#app/features/webhooks/webhook-store.server.ts";
import { enqueue, LEAD_NOTIFICATION } from "#app/lib/outbox/outbox.server.ts";
import {
  createOutboxProcessor,
  dispatchByKind,
  LEASE_MS,
  retryDelayMs,
  startOutboxWorker,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import {
  createTestCertificates,
  type TestCertificates,
} from "#app/lib/safe-fetch/testing/test-certificates.ts";
import {
  checkPostgres,
  createEmptyDatabaseUrl,
  describeEachDatabase,
  TEST_POSTGRES_URL,
} from "../tests/support/databases.ts";
import { createServices } from "./services.server.ts";

// Outgoing webhooks against both databases and a real receiver on 127.0.0.1: fan-out in the
// caller's transaction, signed deliveries checked by an independent verifier and by the Standard
// Webhooks library, retries with the outbox's backoff, redirects and private targets refused, two
// instances racing, rotation, webhooks stored before Standard Webhooks.

/** A secret as shown since issue 32: the standard's `whsec_` + base64 of a 48-byte key. */
const SHOWN_SECRET = /^whsec_[A-Za-z0-9+/]{64}$/;

const SECRET = "test-secret-test-secret-test-secret";
const LEAD = {
  id: 41,
  fullName: "Amara Okafor",
  email: "amara@okafor-build.co.uk",
  company: "Okafor Build Ltd",
  status: "new",
};
const loopbackOnly = (address: string) => address === "127.0.0.1";

async function openSecondInstance(database: AppDatabase): Promise<AppDatabase> {
  if (database.dialect === "sqlite") {
    const { rows } = await sql<{
      file: string;
    }>`select file from pragma_database_list where name = 'main'`.execute(database.db);
    return openDatabase(rows[0]?.file);
  }
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return openDatabase(TEST_POSTGRES_URL, { postgresSchema: rows[0]?.schema, poolSize: 4 });
}

const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describeEachDatabase("webhooks", (use) => {
  let receiver: TestReceiver;
  let certificates: TestCertificates;
  const logged: string[] = [];
  const logger = { error: (message: string) => logged.push(message) };

  beforeAll(async () => {
    receiver = await startTestReceiver();
    certificates = await createTestCertificates();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(async () => {
    const { db } = use();
    await db.deleteFrom("webhookDeliveries").execute();
    await db.deleteFrom("webhooks").execute();
    await db.deleteFrom("outbox").execute();
    await db.deleteFrom("leads").execute();
    receiver.received.length = 0;
    receiver.answers.length = 0;
    logged.length = 0;
  });

  /** A webhook to the test receiver (created through the service, as staff do). */
  async function addWebhook(events: string[] = ["lead.created"], url = receiver.url) {
    const outcome = await createWebhook(use().db, { url, events }, "tester", { allowPrivate: loopbackOnly });
    if (!outcome.ok) throw new Error(outcome.message);
    receiver.secret = outcome.webhook.secret;
    return outcome.webhook;
  }

  /** A processor on a clock the test moves, so retries need no real waiting. */
  function processorAt(clock: { now: Date }, options: { allowPrivate?: (address: string) => boolean } = {}) {
    return createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      ...dispatchByKind({
        [WEBHOOK_DELIVERY]: createWebhookSender({
          db: use().db,
          allowPrivate: options.allowPrivate ?? loopbackOnly,
          timeoutMs: 2000,
          now: () => clock.now,
        }),
      }),
      logger,
      now: () => clock.now,
      random: () => 0.5,
    });
  }

  const outboxRows = () => use().db.selectFrom("outbox").selectAll().orderBy("id").execute();
  const event = (type: "lead.created" | "lead.deleted" = "lead.created") => ({
    type,
    lead: LEAD,
    occurredAt: new Date(),
  });

  it("queues one delivery per subscribed webhook, in the caller's transaction, and nothing without webhooks", async () => {
    expect(await queueWebhookEvent(use().db, event())).toBe(0);
    expect(await outboxRows()).toEqual([]);

    const created = await addWebhook(["lead.created", "lead.updated"]);
    const deleted = await addWebhook(["lead.deleted"]);
    const both = await addWebhook(["lead.created", "lead.deleted"]);
    expect(await queueWebhookEvent(use().db, event())).toBe(2);
    // Rolled back with the change that caused it: nothing queued.
    await expect(
      use()
        .db.transaction()
        .execute(async (trx) => {
          expect(await queueWebhookEvent(trx, event("lead.deleted"))).toBe(2);
          throw new Error("the lead change failed");
        }),
    ).rejects.toThrow("the lead change failed");

    const rows = await outboxRows();
    expect(rows.map((row) => [row.kind, row.status])).toEqual([
      [WEBHOOK_DELIVERY, "pending"],
      [WEBHOOK_DELIVERY, "pending"],
    ]);
    // The outbox names the delivery, never the lead's personal data.
    for (const row of rows) expect(row.payload).not.toContain(LEAD.email);
    const deliveries = await use().db.selectFrom("webhookDeliveries").selectAll().orderBy("id").execute();
    expect(deliveries.map((row) => Number(row.webhookId))).toEqual([created.id, both.id]);
    // One event, one id for every endpoint: receivers can deduplicate by it.
    expect(new Set(deliveries.map((row) => row.eventId)).size).toBe(1);
    expect(JSON.parse(deliveries[0]?.body ?? "")).toEqual({
      id: deliveries[0]?.eventId,
      event: "lead.created",
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { lead: LEAD },
    });
    expect(await listDeliveries(use().db, deleted.id)).toEqual([]);
  });

  it("loads the lead only when someone subscribed, and queues lead.created for a genuine lead, not for spam", async () => {
    let loads = 0;
    const lazy = {
      ...event(),
      lead: async () => {
        loads += 1;
        return LEAD;
      },
    };
    expect(await queueWebhookEvent(use().db, lazy)).toBe(0);
    expect(loads).toBe(0);

    await addWebhook(["lead.created"]);
    const leads = createLeadService({
      db: use().db,
      secret: SECRET,
      rateLimiter: createRateLimiter(use().db, { limit: 1000, windowMs: 600_000 }),
      notify: false,
      onLeadChange: (trx, change) =>
        queueWebhookEvent(trx, {
          type: change.type,
          lead: async () => ({ id: change.leadId, marker: "from the lead service" }),
          occurredAt: change.occurredAt,
        }),
    });
    const fields = {
      fullName: "Jane Doe",
      email: "jane@example.com",
      company: "Acme Build",
      phone: "020 7946 0958",
    };
    const context = () => ({
      clientAddress: "198.51.100.7",
      timeToken: issueTimeToken(SECRET, Date.now() - 60_000),
      sourcePage: "/demo",
    });
    const genuine = await leads.submit(fields, context());
    const spam = await leads.submit({ ...fields, _gotcha: "bot" }, context());
    expect(genuine).toMatchObject({ kind: "stored", spam: false });
    expect(spam).toMatchObject({ kind: "stored", spam: true });
    const bodies = await use().db.selectFrom("webhookDeliveries").select("body").execute();
    expect(bodies.map((row) => JSON.parse(row.body ?? "{}").data.lead)).toEqual([
      { id: genuine.kind === "stored" ? genuine.id : -1, marker: "from the lead service" },
    ]);
  });

  it("delivers a signed POST that an independent verifier accepts, with the documented headers and body", async () => {
    const webhook = await addWebhook();
    await queueWebhookEvent(use().db, event());
    const clock = { now: new Date() };
    expect(await processorAt(clock).processNext()).toBe("sent");

    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(delivery?.path).toBe("/hooks/clausebridge");
    expect(webhook.secret).toMatch(SHOWN_SECRET);
    expect(delivery?.verified).toBe(true);
    // The standard's own library accepts it with the secret exactly as the creation answer shows it.
    expect(delivery?.standardVerified).toBe(true);
    const body = JSON.parse(delivery?.body ?? "");
    expect(body).toMatchObject({ event: "lead.created", data: { lead: LEAD } });
    const seconds = String(Math.floor(clock.now.getTime() / 1000));
    expect(delivery?.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": body.id,
      "webhook-timestamp": seconds,
      "webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
      "x-clausebridge-event-id": body.id,
      "x-clausebridge-event": "lead.created",
      "x-clausebridge-timestamp": seconds,
      "x-clausebridge-signature": expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
    });
    // A tampered body, another secret or a stale timestamp fail the same checks.
    const headers = delivery?.headers ?? {};
    expect(verifyLikeAReceiver(receiver.secret, headers, `${delivery?.body} `)).toBe(false);
    expect(verifyLikeAReceiver("whsec_other", headers, delivery?.body ?? "")).toBe(false);
    expect(verifyWithStandardWebhooks(receiver.secret, headers, `${delivery?.body} `)).toBe(false);
    const otherSecret = `whsec_${randomBytes(48).toString("base64")}`;
    expect(verifyWithStandardWebhooks(otherSecret, headers, delivery?.body ?? "")).toBe(false);
    expect(
      verifyWithStandardWebhooks(
        receiver.secret,
        { ...headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 301) },
        delivery?.body ?? "",
      ),
    ).toBe(false);
    expect(
      verifyLikeAReceiver(
        receiver.secret,
        headers,
        delivery?.body ?? "",
        Math.floor(Date.now() / 1000) + 301,
      ),
    ).toBe(false);

    const [logged1] = await listDeliveries(use().db, webhook.id);
    expect(logged1).toMatchObject({
      status: "delivered",
      attempts: 1,
      responseStatus: 200,
      responseBody: "ok",
    });
    // Delivered: the copy of the lead is dropped.
    const row = await use().db.selectFrom("webhookDeliveries").select("body").executeTakeFirstOrThrow();
    expect(row.body).toBeNull();
    expect(logged).toEqual([]);
  });

  it("retries a 500 with the outbox's backoff, then delivers the same event, re-signed", async () => {
    const webhook = await addWebhook();
    await queueWebhookEvent(use().db, event());
    receiver.answers.push({ status: 500, body: "database down" });
    const clock = { now: new Date() };
    const processor = processorAt(clock);

    expect(await processor.processNext()).toBe("retry");
    const [failed] = await listDeliveries(use().db, webhook.id, { now: clock.now });
    expect(failed).toMatchObject({
      status: "retrying",
      attempts: 1,
      responseStatus: 500,
      responseBody: "database down",
      lastError: "HTTP 500 from the receiver",
      nextAttemptAt: new Date(clock.now.getTime() + retryDelayMs(1, () => 0.5)).toISOString(),
    });
    // Not before its time.
    expect(await processor.processNext()).toBe("idle");
    clock.now = new Date(clock.now.getTime() + 30_000);
    expect(await processor.processNext()).toBe("sent");

    expect(receiver.received.map((delivery) => delivery.verified)).toEqual([true, true]);
    expect(receiver.received.map((delivery) => delivery.standardVerified)).toEqual([true, true]);
    const ids = receiver.received.map((delivery) => delivery.headers["x-clausebridge-event-id"]);
    expect(ids[0]).toBe(ids[1]);
    // The standard's idempotency key is the same at every retry of the delivery, too.
    const standardIds = receiver.received.map((delivery) => delivery.headers["webhook-id"]);
    expect(standardIds).toEqual([ids[0], ids[0]]);
    expect(receiver.received[0]?.body).toBe(receiver.received[1]?.body);
    // Each attempt carries its own timestamp, so a retry passes the receiver's 5-minute window.
    const retriedAt = String(Math.floor(clock.now.getTime() / 1000));
    expect(receiver.received[1]?.headers["x-clausebridge-timestamp"]).toBe(retriedAt);
    expect(receiver.received[1]?.headers["webhook-timestamp"]).toBe(retriedAt);
    expect(receiver.received[0]?.headers["webhook-signature"]).not.toBe(
      receiver.received[1]?.headers["webhook-signature"],
    );
    const [delivered] = await listDeliveries(use().db, webhook.id, { now: clock.now });
    expect(delivered).toMatchObject({
      status: "delivered",
      attempts: 2,
      responseStatus: 200,
      nextAttemptAt: null,
    });
    expect(logged).toEqual([
      expect.stringMatching(/^Outbox message \d+ \(webhook-delivery\) attempt 1 of 8 failed: HTTP 500/),
    ]);
    expect(logged.join("\n")).not.toContain(LEAD.email);
  });

  it("counts a redirect as a failure and never follows it", async () => {
    const webhook = await addWebhook();
    await queueWebhookEvent(use().db, event());
    receiver.answers.push({ status: 302, headers: { Location: `${receiver.url}/moved` } });
    expect(await processorAt({ now: new Date() }).processNext()).toBe("retry");
    expect(receiver.received.map((delivery) => delivery.path)).toEqual(["/hooks/clausebridge"]);
    const [delivery] = await listDeliveries(use().db, webhook.id);
    expect(delivery).toMatchObject({ status: "retrying", responseStatus: 302 });
    expect(delivery?.lastError).toMatch(/^HTTP 302: the receiver redirected, and redirects are not followed/);
  });

  it("gives up after the last attempt and leaves the delivery 'failed' in the log", async () => {
    const webhook = await addWebhook();
    await queueWebhookEvent(use().db, event());
    const clock = { now: new Date() };
    const processor = processorAt(clock);
    for (let attempt = 1; attempt <= 8; attempt++) {
      receiver.answers.push({ status: 503 });
      expect(await processor.processNext()).toBe(attempt < 8 ? "retry" : "failed");
      clock.now = new Date(clock.now.getTime() + 2 * 3_600_000);
    }
    const [delivery] = await listDeliveries(use().db, webhook.id);
    expect(delivery).toMatchObject({
      status: "failed",
      attempts: 8,
      responseStatus: 503,
      nextAttemptAt: null,
    });
  });

  it("delivers at least once: a delivery claimed by an instance that died is sent again after the lease", async () => {
    const webhook = await addWebhook();
    await queueWebhookEvent(use().db, event());
    const start = new Date();
    // An instance claims it and dies before sending or recording anything.
    const dead = createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      send: () => new Promise(() => {}),
      sendTimeoutMs: 60_000,
      now: () => start,
    });
    void dead.processNext();
    await waitFor(async () => (await outboxRows())[0]?.attempts === 1);
    const clock = { now: new Date(start.getTime() + LEASE_MS - 1000) };
    expect(await processorAt(clock).processNext()).toBe("idle");
    clock.now = new Date(start.getTime() + LEASE_MS + 1000);
    expect(await processorAt(clock).processNext()).toBe("sent");
    expect(receiver.received).toHaveLength(1);
    expect((await listDeliveries(use().db, webhook.id))[0]).toMatchObject({
      status: "delivered",
      attempts: 2,
    });
  });

  it("sends each delivery exactly once with two instances racing over the queue", async () => {
    const first = await addWebhook(["lead.created"]);
    const second = await addWebhook(["lead.created"], `${receiver.url}?second`);
    const count = 12;
    for (let i = 0; i < count; i++)
      await queueWebhookEvent(use().db, { ...event(), lead: { ...LEAD, id: i } });
    const other = await openSecondInstance(use());
    const sentBy: [number, number] = [0, 0];
    // Each instance's first send waits until the other is sending too, so both must have claimed a
    // delivery while the other held one: without this, a fast instance could empty the queue alone
    // on a busy machine and the race would not be tested. The wait is bounded so a broken claim
    // fails the assertions below instead of hanging.
    const sending = [false, false];
    let bothSending = () => {};
    const bothAreSending = new Promise<void>((resolve) => (bothSending = resolve));
    const instance = (index: 0 | 1, database: AppDatabase) => {
      const send = createWebhookSender({ db: database.db, allowPrivate: loopbackOnly });
      return startOutboxWorker({
        db: database.db,
        dialect: database.dialect,
        kinds: [WEBHOOK_DELIVERY],
        send: async (message) => {
          if (!sending[index]) {
            sending[index] = true;
            if (sending.every(Boolean)) bothSending();
            await Promise.race([bothAreSending, new Promise((resolve) => setTimeout(resolve, 10_000))]);
          }
          await send(message);
          sentBy[index] += 1;
        },
        logger,
        pollMs: 60_000,
      });
    };
    try {
      const workers = [instance(0, use()), instance(1, other)];
      await Promise.all(workers.map((worker) => worker.drain()));
      await Promise.all(workers.map((worker) => worker.stop()));
    } finally {
      await other.close();
    }
    expect(sentBy[0]).toBeGreaterThan(0);
    expect(sentBy[1]).toBeGreaterThan(0);
    expect(receiver.received).toHaveLength(count * 2);
    const keys = receiver.received.map((d) => `${d.path} ${d.headers["x-clausebridge-event-id"]}`);
    expect(new Set(keys).size).toBe(count * 2);
    const secretFor = (path: string) => (path.endsWith("?second") ? second.secret : first.secret);
    expect(receiver.received.every((d) => verifyLikeAReceiver(secretFor(d.path), d.headers, d.body))).toBe(
      true,
    );
    const rows = await outboxRows();
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    expect(logged).toEqual([]);
  });

  it("refuses private targets at creation and again at each delivery (DNS rebinding)", async () => {
    const refused = await createWebhook(
      use().db,
      { url: "http://127.0.0.1:9/hook", events: ["lead.created"] },
      "tester",
      { allowPrivate: false },
    );
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      errors: {
        url:
          "Refused: 127.0.0.1 is a loopback address (127.0.0.0/8). Webhooks only reach public addresses; " +
          "set WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow private ones.",
      },
    });
    const metadata = await createWebhook(
      use().db,
      { url: "http://metadata.internal.example/latest", events: ["lead.created"] },
      "tester",
      { allowPrivate: false, resolve: async () => [{ address: "169.254.169.254", family: 4 }] },
    );
    expect(metadata).toMatchObject({
      ok: false,
      errors: { url: expect.stringMatching(/resolves to a cloud metadata/) },
    });
    expect(await listWebhooks(use().db)).toEqual([]);

    // Public when created, private by the time of the delivery.
    let answer = "93.184.215.14";
    const created = await createWebhook(
      use().db,
      {
        url: `http://rebind.example:${new URL(receiver.url).port}/hooks/clausebridge`,
        events: ["lead.created"],
      },
      "tester",
      { allowPrivate: false, resolve: async () => [{ address: answer, family: 4 }] },
    );
    expect(created.ok).toBe(true);
    answer = "127.0.0.1";
    await queueWebhookEvent(use().db, event());
    const processor = createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      send: createWebhookSender({
        db: use().db,
        allowPrivate: false,
        resolve: async () => [{ address: answer, family: 4 }],
      }),
      logger,
    });
    expect(await processor.processNext()).toBe("retry");
    expect(receiver.received).toEqual([]);
    const [delivery] = await listDeliveries(use().db, created.ok ? created.webhook.id : -1);
    expect(delivery?.lastError).toMatch(/^Refused: rebind\.example resolves to a loopback address/);
    expect(delivery?.lastError).not.toContain("127.0.0.1");
  });

  it("verifies the receiver's certificate: a self-signed one fails, one from a trusted authority is delivered", async () => {
    const secure = await startTestReceiver({ tls: certificates.valid });
    try {
      const outcome = await createWebhook(use().db, { url: secure.url, events: ["lead.created"] }, "tester", {
        allowPrivate: loopbackOnly,
      });
      if (!outcome.ok) throw new Error(outcome.message);
      secure.secret = outcome.webhook.secret;
      await queueWebhookEvent(use().db, event());
      const send = (ca?: string) =>
        createOutboxProcessor({
          db: use().db,
          dialect: use().dialect,
          send: createWebhookSender({ db: use().db, allowPrivate: loopbackOnly, ca }),
          now: () => new Date(Date.now() + 3_600_000 * (ca ? 1 : 0)),
        }).processNext();
      expect(await send()).toBe("retry");
      expect(secure.received).toEqual([]);
      expect((await listDeliveries(use().db, outcome.webhook.id))[0]?.lastError).toMatch(
        /^TLS failed: TLS with 127\.0\.0\.1:\d+ failed \(\w+/,
      );
      expect(await send(certificates.ca)).toBe("sent");
      expect(secure.received.map((delivery) => delivery.verified)).toEqual([true]);
    } finally {
      await secure.close();
    }
  });

  it("times out a receiver that never answers and keeps only the start of a long answer", async () => {
    const webhook = await addWebhook();
    await queueWebhookEvent(use().db, event());
    receiver.answers.push({ status: 200, hang: true });
    const clock = { now: new Date() };
    const processor = createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      send: createWebhookSender({
        db: use().db,
        allowPrivate: loopbackOnly,
        timeoutMs: 300,
        now: () => clock.now,
      }),
      now: () => clock.now,
    });
    expect(await processor.processNext()).toBe("retry");
    expect((await listDeliveries(use().db, webhook.id))[0]?.lastError).toBe(
      "Timed out: No complete answer within 0.3 s.",
    );

    receiver.answers.push({ status: 200, body: `${"x".repeat(100_000)}\u0000` });
    clock.now = new Date(clock.now.getTime() + 60_000);
    expect(await processor.processNext()).toBe("sent");
    const [delivery] = await listDeliveries(use().db, webhook.id);
    expect(delivery?.responseBody).toBe("x".repeat(4096));
  });

  it("rotates the secret: shown once, never listed, and queued deliveries are signed with the new one", async () => {
    const webhook = await addWebhook();
    const oldSecret = receiver.secret;
    await queueWebhookEvent(use().db, event());
    const newSecret = await rotateWebhookSecret(use().db, webhook.id);
    expect(newSecret).toMatch(SHOWN_SECRET);
    expect(newSecret).not.toBe(oldSecret);
    expect(await rotateWebhookSecret(use().db, webhook.id + 1000)).toBeUndefined();
    const listed = JSON.stringify(await listWebhooks(use().db));
    expect(listed).not.toContain(oldSecret);
    expect(listed).not.toContain(newSecret);
    expect(JSON.parse(listed)[0].secretRotatedAt).toMatch(/^\d{4}-/);

    receiver.secret = newSecret ?? "";
    expect(await processorAt({ now: new Date() }).processNext()).toBe("sent");
    const [delivery] = receiver.received;
    expect(delivery?.verified).toBe(true);
    expect(delivery?.standardVerified).toBe(true);
    expect(verifyLikeAReceiver(oldSecret, delivery?.headers ?? {}, delivery?.body ?? "")).toBe(false);
    expect(verifyWithStandardWebhooks(oldSecret, delivery?.headers ?? {}, delivery?.body ?? "")).toBe(false);
  });

  it("signs a webhook stored before Standard Webhooks with its stored secret: the old check as before, and the standard's", async () => {
    // What the previous release stored, and showed once, and receivers keyed their HMAC with as is.
    const oldSecret = `whsec_${randomBytes(32).toString("base64url")}`;
    const row = await use()
      .db.insertInto("webhooks")
      .values({
        url: receiver.url,
        events: JSON.stringify(["lead.created"]),
        secret: oldSecret,
        createdAt: new Date(Date.now() - 86_400_000).toISOString(),
        createdBy: "tester",
        secretRotatedAt: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Its form for a Standard Webhooks library, as the README tells its owner to write it.
    const standardForm = `whsec_${Buffer.from(oldSecret).toString("base64")}`;
    receiver.secret = standardForm;
    await queueWebhookEvent(use().db, event());
    receiver.answers.push({ status: 503 });
    const clock = { now: new Date() };
    const processor = processorAt(clock);
    expect(await processor.processNext()).toBe("retry");
    clock.now = new Date(clock.now.getTime() + 30_000);
    expect(await processor.processNext()).toBe("sent");

    expect(receiver.received).toHaveLength(2);
    // Its whsec_ form is base64 of exactly the key bytes that sign both schemes.
    expect(keyOfShownSecret(standardForm).toString("utf8")).toBe(oldSecret);
    for (const delivery of receiver.received) {
      // The receiver built on X-Clausebridge-Signature keeps its key: the old secret's text, as is.
      expect(verifyClausebridgeSignature(oldSecret, delivery.headers, delivery.body)).toBe(true);
      expect(delivery.verified).toBe(true);
      expect(delivery.standardVerified).toBe(true);
      // The old text is not itself a Standard Webhooks secret (43 base64url characters).
      expect(verifyWithStandardWebhooks(oldSecret, delivery.headers, delivery.body)).toBe(false);
    }
    const [first, second] = receiver.received;
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(first?.headers["webhook-id"]).toBe(JSON.parse(first?.body ?? "{}").id);
    expect((await listDeliveries(use().db, Number(row.id)))[0]).toMatchObject({ status: "delivered" });
    // Stored as it was: nothing rewrote it.
    const stored = await use().db.selectFrom("webhooks").select("secret").executeTakeFirstOrThrow();
    expect(stored.secret).toBe(oldSecret);
  });

  it("sends test events marked as tests to any webhook, whatever it subscribes to", async () => {
    const webhook = await addWebhook(["lead.deleted"]);
    await queueTestEvent(use().db, webhook.id, "ping");
    await queueTestEvent(use().db, webhook.id, "lead.created");
    expect(await queueTestEvent(use().db, webhook.id + 1000, "ping")).toBeUndefined();
    const processor = processorAt({ now: new Date() });
    expect(await processor.drain()).toMatchObject({ sent: 2 });
    const [ping, created] = receiver.received.map((delivery) => JSON.parse(delivery.body));
    expect(ping).toMatchObject({
      event: "ping",
      test: true,
      data: { webhook: { id: webhook.id, events: ["lead.deleted"] } },
    });
    expect(created).toMatchObject({
      event: "lead.created",
      test: true,
      data: {
        lead: { id: 0, fullName: "Test Lead (sample, not a real person)", email: "test.lead@example.com" },
      },
    });
    const log = await listDeliveries(use().db, webhook.id);
    expect(log.map((delivery) => [delivery.event, delivery.test, delivery.status])).toEqual([
      ["lead.created", true, "delivered"],
      ["ping", true, "delivered"],
    ]);
  });

  it("deletes a webhook with its log and queued deliveries; prunes old deliveries", async () => {
    const kept = await addWebhook();
    const gone = await addWebhook();
    await queueWebhookEvent(use().db, event());
    expect(await deleteWebhook(use().db, gone.id)).toBe(true);
    expect(await deleteWebhook(use().db, gone.id)).toBe(false);
    expect((await outboxRows()).map((row) => JSON.parse(row.payload).webhookId)).toEqual([kept.id]);
    expect(await processorAt({ now: new Date() }).drain()).toMatchObject({ sent: 1 });

    expect(await pruneDeliveries(use().db, new Date(Date.now() - 86_400_000))).toBe(0);
    expect(await pruneDeliveries(use().db, new Date(Date.now() + 1000))).toBe(1);
    expect(await outboxRows()).toEqual([]);
    expect(await listDeliveries(use().db, kept.id)).toEqual([]);
  });

  it("never claims a kind it cannot send: a lead email waits, pending, while webhooks go out", async () => {
    await addWebhook();
    await enqueue(use().db, LEAD_NOTIFICATION, { leadId: 1 }, new Date());
    await queueWebhookEvent(use().db, event());
    expect(await processorAt({ now: new Date() }).drain()).toMatchObject({ sent: 1, failed: 0 });
    const rows = await outboxRows();
    expect(rows.map((row) => [row.kind, row.status, row.attempts])).toEqual([
      [LEAD_NOTIFICATION, "pending", 0],
      [WEBHOOK_DELIVERY, "sent", 1],
    ]);
  });
});

// --- Wiring: createServices and startBackgroundWork (SQLite, no SMTP) --------------------------

describe("services without SMTP", () => {
  let receiver: TestReceiver;
  let dir: string;
  beforeAll(async () => {
    receiver = await startTestReceiver();
    dir = mkdtempSync(join(tmpdir(), "webhook-services-"));
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the worker for webhooks created after start-up, and a submitted lead fires lead.created", async () => {
    const services = await createServices(
      parseEnv({
        DATABASE_URL: join(dir, "app.sqlite"),
        APP_SECRET: SECRET,
        LOG_LEVEL: "silent",
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      }),
    );
    const background = services.startBackgroundWork();
    try {
      const outcome = await createWebhook(
        services.database.db,
        { url: receiver.url, events: ["lead.created"] },
        "tester",
        { allowPrivate: true },
      );
      if (!outcome.ok) throw new Error(outcome.message);
      receiver.secret = outcome.webhook.secret;
      const result = await services.leads.submit(
        { fullName: "Jane Doe", email: "jane@example.com", company: "Acme Build", phone: "020 7946 0958" },
        {
          clientAddress: "203.0.113.7",
          timeToken: issueTimeToken(SECRET, Date.now() - 60_000),
          sourcePage: "/",
        },
      );
      await waitFor(() => receiver.received.length === 1, 10_000);
      const body = JSON.parse(receiver.received[0]?.body ?? "");
      expect(receiver.received[0]?.verified).toBe(true);
      // The lead as GET /api/admin/leads/:id returns it.
      expect(body.data.lead).toMatchObject({
        id: result.kind === "stored" ? result.id : -1,
        fullName: "Jane Doe",
        email: "jane@example.com",
        isSpam: false,
        status: "new",
        investorType: { angel: false, vc: false, introducer: false, other: false },
      });
      // No SMTP: no lead email was queued, so nothing waits or fails. The worker records "sent" after
      // the receiver has answered, so the row is polled rather than read once (a race under load).
      await expect
        .poll(() => services.database.db.selectFrom("outbox").select(["kind", "status"]).execute(), {
          timeout: 10_000,
        })
        .toEqual([{ kind: WEBHOOK_DELIVERY, status: "sent" }]);
    } finally {
      await background.stop();
      await services.database.close();
    }
  });
});

// --- The lead in a webhook is the staff API's list item (issue 22), on both databases -----------

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`a webhook's data.lead [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let receiver: TestReceiver;
    let databaseUrl = "";
    let dispose = async () => {};
    beforeAll(async () => {
      receiver = await startTestReceiver();
      if (!available) return;
      const database = await createEmptyDatabaseUrl(kind);
      databaseUrl = database.url;
      dispose = database.dispose;
    });
    afterAll(async () => {
      await receiver.close();
      await dispose();
    });
    if (!available) return;

    it("is the lead exactly as GET /api/admin/leads lists it: owner, returning and all", async () => {
      const services = await createServices(
        parseEnv({
          DATABASE_URL: databaseUrl,
          APP_SECRET: SECRET,
          LOG_LEVEL: "silent",
          WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        }),
      );
      const background = services.startBackgroundWork();
      try {
        const db = services.database.db;
        const outcome = await createWebhook(
          db,
          { url: receiver.url, events: ["lead.created", "lead.updated"] },
          "tester",
          { allowPrivate: true },
        );
        if (!outcome.ok) throw new Error(outcome.message);
        receiver.secret = outcome.webhook.secret;
        const owner = await createUser(db, {
          username: "owen",
          password: "a long enough password",
          isAdmin: true,
        });
        const context = () => ({
          clientAddress: "203.0.113.8",
          timeToken: issueTimeToken(SECRET, Date.now() - 60_000),
          sourcePage: "/",
        });
        const fields = {
          fullName: "Jane Doe",
          email: "jane@example.com",
          company: "Acme Build",
          phone: "020 7946 0958",
        };
        await services.leads.submit(fields, context());
        // The same person again: this one is "returning".
        const second = await services.leads.submit({ ...fields, message: "Still interested" }, context());
        if (second.kind !== "stored") throw new Error("the second lead was not stored");
        await services.leadAdmin.setOwner(second.id, owner.id, { id: owner.id, username: owner.username });

        await waitFor(() => receiver.received.length === 3, 10_000);
        const bodies = receiver.received.map((delivery) => JSON.parse(delivery.body));
        const updated = bodies.find((body) => body.event === "lead.updated");
        const { leads } = await listLeads(db, { page: 1, pageSize: 10 });
        // What the API answers: the list item through JSON.
        const listed = JSON.parse(JSON.stringify(leads.find((lead) => lead.id === second.id)));
        expect(listed).toMatchObject({ ownerName: "owen", ownerDisabled: false, returning: true });
        expect(updated.data.lead).toEqual(listed);
        const created = bodies.filter((body) => body.event === "lead.created").map((body) => body.data.lead);
        expect(created.map((lead) => [lead.returning, lead.ownerName, lead.ownerDisabled])).toEqual([
          [false, null, false],
          [true, null, false],
        ]);
      } finally {
        await background.stop();
        await services.database.close();
      }
    });
  });
}
