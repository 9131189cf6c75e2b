import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { parseEnv } from "#app/env.server.ts";
import { createOutboxSender } from "#app/features/leads/lead-notification.server.ts";
import { createLeadService } from "#app/features/leads/lead-service.server.ts";
import { issueTimeToken } from "#app/features/leads/time-token.server.ts";
import { createMailTransport, type MailTransport } from "#app/lib/mailer.server.ts";
import {
  claimNextMessage,
  createOutboxProcessor,
  describeSendError,
  LEASE_MS,
  type OutboxProcessorOptions,
  retryDelayMs,
  startOutboxWorker,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { startTestSmtp, type TestSmtp } from "#app/lib/testing/test-smtp.ts";
import { describeEachDatabase, TEST_POSTGRES_URL } from "../tests/support/databases.ts";
import { createServices } from "./services.server.ts";

const SECRET = "test-secret-test-secret-test-secret";
const MAIL = {
  from: "Clausebridge website <no-reply@clausebridge.test>",
  to: "sales@clausebridge.test",
  publicUrl: "https://www.clausebridge.test",
};

const demo = {
  fullName: "Amara Okafor",
  email: "amara@okafor-build.co.uk",
  company: "Okafor Build Ltd",
  phone: "+44 7700 900123",
  message: "We manage 40 subcontracts per project.\nMostly NEC4.",
};

/** A port nothing listens on (a mail server that is down). */
async function closedPort(): Promise<number> {
  const smtp = await startTestSmtp();
  await smtp.close();
  return smtp.port;
}

/** A second, independent connection (pool) to the same database, as another app instance has. */
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

// --- The outbox against both databases ---------------------------------------------------------

describeEachDatabase("outbox worker", (use) => {
  let smtp: TestSmtp;
  let transport: MailTransport;
  let address = 0;
  const logged: string[] = [];
  const logger = { error: (message: string) => logged.push(message) };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    transport = createMailTransport(smtp.url, 2000);
  });
  afterAll(async () => {
    transport.close();
    await smtp.close();
  });
  beforeEach(async () => {
    await use().db.deleteFrom("outbox").execute();
    await use().db.deleteFrom("leads").execute();
    await use().db.deleteFrom("rateLimits").execute();
    smtp.received.length = 0;
    Object.assign(smtp.behaviour, { refuse: false, delayMs: 0 });
    logged.length = 0;
  });

  const leads = () =>
    createLeadService({
      db: use().db,
      secret: SECRET,
      rateLimiter: createRateLimiter(use().db, { limit: 1000, windowMs: 600_000 }),
      notify: true,
    });

  /** Stores a genuine lead the way a visitor does; returns the lead id. */
  async function submitLead(overrides: Partial<typeof demo> = {}): Promise<number> {
    const result = await leads().submit(
      { ...demo, ...overrides },
      {
        clientAddress: `198.51.100.${++address % 250}`,
        timeToken: issueTimeToken(SECRET, Date.now() - 60_000),
        sourcePage: "/demo",
      },
    );
    if (result.kind !== "stored" || result.spam) throw new Error(`not stored: ${JSON.stringify(result)}`);
    return result.id;
  }

  const outboxRows = () => use().db.selectFrom("outbox").selectAll().orderBy("id").execute();

  /** A processor on a clock the test moves, so retries need no real waiting. */
  function processorAt(clock: { now: Date }, options: Partial<OutboxProcessorOptions> = {}) {
    return createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      send: createOutboxSender({ db: use().db, transport, mail: MAIL }),
      logger,
      now: () => clock.now,
      random: () => 0.5,
      ...options,
    });
  }

  it("delivers a queued lead once, with the right envelope, headers and body", async () => {
    const leadId = await submitLead();
    const [queued] = await outboxRows();
    const result = await processorAt({ now: new Date() }).drain();

    expect(result).toMatchObject({ sent: 1, retry: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail?.to).toEqual(["sales@clausebridge.test"]);
    expect(mail?.headers.get("to")).toBe("sales@clausebridge.test");
    expect(mail?.headers.get("from")).toBe("Clausebridge website <no-reply@clausebridge.test>");
    expect(mail?.headers.get("reply-to")).toBe("Amara Okafor <amara@okafor-build.co.uk>");
    expect(mail?.headers.get("subject")).toBe("New demo request: Amara Okafor, Okafor Build Ltd");
    expect(mail?.headers.get("message-id")).toBe(`<lead-${leadId}.outbox-${queued?.id}@clausebridge.test>`);
    expect(mail?.headers.get("auto-submitted")).toBe("auto-generated");
    for (const expected of [
      "Name:        Amara Okafor",
      "Email:       amara@okafor-build.co.uk",
      "Company:     Okafor Build Ltd",
      "Phone:       +44 7700 900123",
      "Message:\n  We manage 40 subcontracts per project.\n  Mostly NEC4.",
      "Source page: /demo",
      "Received:    ",
      `Lead ID:     ${leadId}`,
      "Open the dashboard: https://www.clausebridge.test/admin/dashboard",
    ]) {
      expect(mail?.text).toContain(expected);
    }

    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: "sent", attempts: 1, lockedUntil: null, lastError: null });
    expect(row?.sentAt).not.toBeNull();
    // Nothing is due any more: a second pass sends nothing.
    expect(await processorAt({ now: new Date() }).drain()).toMatchObject({ sent: 0, idle: 1 });
    expect(smtp.received).toHaveLength(1);
    expect(logged).toEqual([]);
  });

  it("keeps CR/LF in a visitor's name and company out of the headers", async () => {
    // Submissions refuse control characters now (issue 9); a row stored before that, or written by
    // another tool, may still hold them, and the email must stay safe.
    const id = await submitLead();
    await use()
      .db.updateTable("leads")
      .set({ fullName: "Eve Mallory\r\nBcc: victim@example.com", company: "Evil Ltd\nX-Injected: yes" })
      .where("id", "=", id)
      .execute();
    await processorAt({ now: new Date() }).drain();

    const mail = smtp.received[0];
    expect(mail?.to).toEqual(["sales@clausebridge.test"]);
    expect(mail?.headers.has("bcc")).toBe(false);
    expect(mail?.headers.has("x-injected")).toBe(false);
    const head = mail?.raw.split("\r\n\r\n")[0] ?? "";
    expect(head).not.toMatch(/^(bcc|x-injected):/im);
    expect(mail?.headers.get("subject")).toBe(
      "New demo request: Eve Mallory Bcc: victim@example.com, Evil Ltd X-Injected: yes",
    );
  });

  it("keeps a refused message pending with a backoff, then delivers it when the server accepts again", async () => {
    await submitLead();
    const clock = { now: new Date() };
    const processor = processorAt(clock);
    smtp.behaviour.refuse = true;

    expect(await processor.processNext()).toBe("retry");
    const [afterFailure] = await outboxRows();
    expect(afterFailure).toMatchObject({ status: "pending", attempts: 1, lockedUntil: null });
    expect(Date.parse(afterFailure?.nextAttemptAt ?? "")).toBe(
      clock.now.getTime() + retryDelayMs(1, () => 0.5),
    );
    expect(afterFailure?.lastError).toMatch(/451/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/attempt 1 of 8 failed: .*451.*next attempt at/);
    for (const text of [...logged, afterFailure?.lastError ?? ""]) {
      expect(text).not.toMatch(/@|Amara|Okafor/);
    }

    // Not due yet: nothing is sent, however often the worker looks.
    smtp.behaviour.refuse = false;
    expect(await processor.processNext()).toBe("idle");
    clock.now = new Date(Date.parse(afterFailure?.nextAttemptAt ?? "") + 1);
    expect(await processor.processNext()).toBe("sent");
    expect(smtp.received).toHaveLength(1);
    expect((await outboxRows())[0]).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });

  it("keeps the message when the mail server is down (connection refused) and delivers it once it is back", async () => {
    await submitLead();
    const port = await closedPort();
    const downTransport = createMailTransport(`smtp://127.0.0.1:${port}`, 2000);
    const clock = { now: new Date() };
    const processor = processorAt(clock, {
      send: createOutboxSender({ db: use().db, transport: downTransport, mail: MAIL }),
    });
    try {
      expect(await processor.processNext()).toBe("retry");
      const [row] = await outboxRows();
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(Date.parse(row?.nextAttemptAt ?? "")).toBeGreaterThan(clock.now.getTime());
      expect(row?.lastError).toMatch(/ECONNREFUSED/);

      const revived = await startTestSmtp(port);
      try {
        clock.now = new Date(clock.now.getTime() + 60 * 60_000);
        expect(await processor.processNext()).toBe("sent");
        expect(revived.received).toHaveLength(1);
        expect(revived.received[0]?.headers.get("subject")).toContain("Amara Okafor");
      } finally {
        await revived.close();
      }
    } finally {
      downTransport.close();
    }
  });

  it("fails the attempt, instead of hanging, when a server accepts the connection and says nothing", async () => {
    await submitLead();
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const hungTransport = createMailTransport(
      `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      300,
    );
    try {
      const processor = processorAt(
        { now: new Date() },
        { send: createOutboxSender({ db: use().db, transport: hungTransport, mail: MAIL }) },
      );
      expect(await processor.processNext()).toBe("retry");
      expect((await outboxRows())[0]).toMatchObject({
        status: "pending",
        attempts: 1,
        lastError: expect.stringMatching(/ETIMEDOUT/),
      });
    } finally {
      hungTransport.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("gives up after the last attempt and leaves the message 'failed'", async () => {
    await submitLead();
    const clock = { now: new Date() };
    const processor = processorAt(clock, { maxAttempts: 3 });
    smtp.behaviour.refuse = true;

    const outcomes = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      outcomes.push(await processor.processNext());
      clock.now = new Date(clock.now.getTime() + 2 * 60 * 60_000);
    }
    expect(outcomes).toEqual(["retry", "retry", "failed"]);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: "failed", attempts: 3, lockedUntil: null, sentAt: null });
    expect(row?.lastError).toMatch(/451/);
    expect(logged.at(-1)).toMatch(/attempt 3 of 3 failed: .*giving up/);
    // A failed message is never picked up again.
    smtp.behaviour.refuse = false;
    expect(await processor.processNext()).toBe("idle");
    expect(smtp.received).toHaveLength(0);
  });

  it("fails at once, without retrying, when the lead no longer exists", async () => {
    await submitLead();
    await use().db.deleteFrom("leads").execute();
    expect(await processorAt({ now: new Date() }).processNext()).toBe("failed");
    expect((await outboxRows())[0]).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: expect.stringMatching(/no longer exists/),
    });
  });

  it("leaves a claimed message alone until its lease runs out (an instance that died mid-send)", async () => {
    await submitLead();
    const now = new Date();
    const first = await claimNextMessage(use().db, use().dialect, now);
    expect(first).toMatchObject({ attempts: 1 });
    expect(
      await claimNextMessage(use().db, use().dialect, new Date(now.getTime() + LEASE_MS - 1)),
    ).toBeUndefined();
    const retaken = await claimNextMessage(use().db, use().dialect, new Date(now.getTime() + LEASE_MS + 1));
    expect(retaken).toMatchObject({ id: first?.id, attempts: 2 });
  });

  it("sends each of N messages exactly once with two instances working the queue at the same time", async () => {
    const count = 24;
    for (let i = 0; i < count; i++) await submitLead({ fullName: `Lead Number ${i}` });
    const other = await openSecondInstance(use());
    const otherTransport = createMailTransport(smtp.url, 2000);
    const sentBy: [number, number] = [0, 0];
    const instance = (index: 0 | 1, database: AppDatabase, mailTransport: MailTransport) => {
      const send = createOutboxSender({ db: database.db, transport: mailTransport, mail: MAIL });
      return startOutboxWorker({
        db: database.db,
        dialect: database.dialect,
        send: async (message) => {
          await send(message);
          sentBy[index] += 1;
        },
        logger,
        pollMs: 60_000,
      });
    };
    try {
      const workers = [instance(0, use(), transport), instance(1, other, otherTransport)];
      await Promise.all(workers.map((worker) => worker.drain()));
      await Promise.all(workers.map((worker) => worker.stop()));
    } finally {
      otherTransport.close();
      await other.close();
    }

    // Both really worked the queue (this is a race, not two turns).
    expect(sentBy[0]).toBeGreaterThan(0);
    expect(sentBy[1]).toBeGreaterThan(0);
    expect(sentBy[0] + sentBy[1]).toBe(count);
    expect(smtp.received).toHaveLength(count);
    const ids = new Set(smtp.received.map((mail) => mail.headers.get("message-id")));
    expect(ids.size).toBe(count);
    const rows = await outboxRows();
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    expect(logged).toEqual([]);
  });

  it("never makes a visitor wait for a slow mail server; stop() lets the send in progress finish", async () => {
    smtp.behaviour.delayMs = 1500;
    const worker = startOutboxWorker({
      db: use().db,
      dialect: use().dialect,
      send: createOutboxSender({ db: use().db, transport, mail: MAIL }),
      logger,
      pollMs: 60_000,
    });
    try {
      const dataStarted = smtp.nextData();
      await submitLead({ fullName: "First Visitor" });
      worker.notify();
      await dataStarted;

      // The worker is now waiting on the server; the next visitor's submission is not.
      const started = performance.now();
      await submitLead({ fullName: "Second Visitor" });
      worker.notify();
      expect(performance.now() - started).toBeLessThan(500);
      expect(smtp.received).toHaveLength(0);
    } finally {
      await worker.stop();
    }

    expect(smtp.received.map((mail) => mail.headers.get("subject"))).toEqual([
      "New demo request: First Visitor, Okafor Build Ltd",
    ]);
    const rows = await outboxRows();
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ["sent", 1],
      ["pending", 0],
    ]);
  });
});

// --- Pure parts --------------------------------------------------------------------------------

describe("retry schedule", () => {
  it("backs off 30 s, 2 min, 8 min, 32 min, then hourly, shortened by up to a fifth at random", () => {
    const longest = [1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelayMs(attempt, () => 0));
    expect(longest).toEqual([30_000, 120_000, 480_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000]);
    expect(retryDelayMs(1, () => 0.999)).toBeGreaterThan(24_000);
    expect(retryDelayMs(1, () => 0.999)).toBeLessThan(30_000);
  });

  it("describes send errors without email addresses", () => {
    const error = Object.assign(
      new Error("Can't send mail - all recipients were rejected: 550 <sales@x.test>: no"),
      {
        code: "EENVELOPE",
        responseCode: 550,
      },
    );
    expect(describeSendError(error)).toBe(
      "EENVELOPE: Can't send mail - all recipients were rejected: 550 <[address]>: no",
    );
  });
});

// --- Wiring: createServices and startBackgroundWork (SQLite) -----------------------------------

describe("services with SMTP configured", () => {
  let smtp: TestSmtp;
  let dir: string;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    dir = mkdtempSync(join(tmpdir(), "outbox-services-"));
  });
  afterAll(async () => {
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    smtp.received.length = 0;
  });

  it("does not start a worker by itself, and emails a new lead at once after startBackgroundWork()", async () => {
    const services = await createServices(
      parseEnv({
        DATABASE_URL: join(dir, "app.sqlite"),
        APP_SECRET: SECRET,
        SMTP_URL: smtp.url,
        LEAD_NOTIFICATION_TO: MAIL.to,
        MAIL_FROM: MAIL.from,
        LOG_LEVEL: "silent",
      }),
    );
    const context = () => ({
      clientAddress: "203.0.113.7",
      timeToken: issueTimeToken(SECRET, Date.now() - 60_000),
      sourcePage: "/",
    });
    try {
      await services.leads.submit(demo, context());
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(smtp.received).toHaveLength(0);

      const background = services.startBackgroundWork();
      try {
        // The one queued before start goes out in the first pass; a new lead does not wait for the
        // 5-second poll.
        await waitFor(() => smtp.received.length === 1, 2000);
        await services.leads.submit({ ...demo, fullName: "Second Lead" }, context());
        await waitFor(() => smtp.received.length === 2, 2000);
      } finally {
        await background.stop();
      }
      expect(smtp.received[1]?.headers.get("subject")).toBe(
        "New demo request: Second Lead, Okafor Build Ltd",
      );
    } finally {
      await services.database.close();
    }
  });
});
