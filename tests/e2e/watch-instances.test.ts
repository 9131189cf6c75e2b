import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { type GradedSite, startGradedSite } from "../../app/features/audits/testing/test-servers.ts";
import { startTestReceiver, type TestReceiver } from "../../app/features/webhooks/testing/test-receiver.ts";
import { startTestSmtp, type TestSmtp } from "../../app/lib/testing/test-smtp.ts";
import type { RunningServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { signIn } from "./support/accounts.ts";
import { prepareSharedDatabase, startInstances } from "./support/instances.ts";

// Issue 25's proof with two real instances (server.ts) on one PostgreSQL schema, each looking for due
// watches every second: a watch runs once per slot whichever instance finds it; a site whose grade
// drops gets one alert and, when it recovers, one resolved notice; each notice is delivered once (one
// signed audit.alert webhook and one email each), however the two instances' workers race.

const ADMIN = { username: "watch-admin", password: "watch admin passphrase" };
const RUN_WAIT = { timeout: 90_000, interval: 250 };

const postgres = await checkPostgres();

describe.skipIf(!postgres)("watches on two instances of the server, one PostgreSQL", () => {
  let dropSchema: (() => Promise<void>) | undefined;
  let database: AppDatabase | undefined;
  let site: GradedSite | undefined;
  let receiver: TestReceiver | undefined;
  let smtp: TestSmtp | undefined;
  const instances: RunningServer[] = [];
  const db = () => {
    if (!database) throw new Error("not started");
    return database.db;
  };

  beforeAll(async () => {
    const schema = await createPostgresSchema();
    dropSchema = schema.drop;
    site = await startGradedSite();
    receiver = await startTestReceiver();
    smtp = await startTestSmtp();
    await prepareSharedDatabase(schema.url, ADMIN);
    database = openDatabase(schema.url, { poolSize: 2 });
    const env = {
      DATABASE_URL: schema.url,
      AUDIT_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      SMTP_URL: smtp.url,
      LEAD_NOTIFICATION_TO: "sales@clausebridge.test",
      WATCH_POLL_SECONDS: "1",
      DATABASE_POOL_SIZE: "4",
    };
    await startInstances(env, 2, instances);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(instances.map((instance) => instance.stop()));
    await site?.close();
    await receiver?.close();
    await smtp?.close();
    await database?.close();
    await dropSchema?.();
  }, 30_000);

  const count = async (table: "watchRuns" | "watchAlerts", watchId: number) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("count"))
          .where("watchId", "=", watchId)
          .executeTakeFirstOrThrow()
      ).count,
    );
  const outboxCount = async (kind: string) =>
    Number(
      (
        await db()
          .selectFrom("outbox")
          .select((eb) => eb.fn.countAll().as("count"))
          .where("kind", "=", kind)
          .executeTakeFirstOrThrow()
      ).count,
    );
  const makeDue = (watchId: number) =>
    db()
      .updateTable("watches")
      .set({ nextRunAt: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", watchId)
      .execute();
  /** Waits for the runs to reach `runs`, then a few more looks of both instances: never one more. */
  const expectRuns = async (watchId: number, runs: number) => {
    await vi.waitFor(async () => expect(await count("watchRuns", watchId)).toBe(runs), RUN_WAIT);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await count("watchRuns", watchId)).toBe(runs);
  };

  it("runs each due slot once, alerts once on a grade drop and resolves once, each notice delivered once", async () => {
    const [a, b] = instances as [RunningServer, RunningServer];
    const cookie = await signIn(a.url, ADMIN.username, ADMIN.password);
    const post = (server: RunningServer, path: string, body: unknown) =>
      fetch(`${server.url.replace(/\/+$/, "")}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: new URL(server.url).origin, Cookie: cookie },
        body: JSON.stringify(body),
      });
    const hook = await post(b, "/api/admin/webhooks", { url: receiver?.url, events: ["audit.alert"] });
    expect(hook.status).toBe(201);
    if (receiver) receiver.secret = ((await hook.json()) as { secret: string }).secret;
    const created = await post(a, "/api/admin/watches", {
      url: `${site?.origin}/`,
      checks: ["security", "performance"],
      every: "hourly",
      recipients: "ops@example.com",
    });
    expect(created.status).toBe(201);
    const watchId = ((await created.json()) as { id: number }).id;

    await makeDue(watchId);
    await expectRuns(watchId, 1);
    site?.setGood(false);
    await makeDue(watchId);
    await expectRuns(watchId, 2);
    const opened = await db().selectFrom("watchAlerts").selectAll().where("watchId", "=", watchId).execute();
    expect(opened.map((alert) => [alert.condition, alert.resolvedAt])).toEqual([
      ["security-grade-drop", null],
    ]);

    site?.setGood(true);
    await makeDue(watchId);
    await expectRuns(watchId, 3);
    const alerts = await db().selectFrom("watchAlerts").selectAll().where("watchId", "=", watchId).execute();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.resolvedAt).not.toBeNull();

    // One webhook delivery and one email per change, in the outbox and at the receivers.
    expect(await outboxCount("webhook-delivery")).toBe(2);
    expect(await outboxCount("watch-alert-email")).toBe(2);
    await vi.waitFor(() => {
      expect(receiver?.received).toHaveLength(2);
      expect(smtp?.received).toHaveLength(2);
    }, RUN_WAIT);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver?.received).toHaveLength(2);
    expect(smtp?.received).toHaveLength(2);
    expect(receiver?.received.every((delivery) => delivery.verified)).toBe(true);
    const statuses = receiver?.received.map((delivery) => JSON.parse(delivery.body).data.alert.status).sort();
    expect(statuses).toEqual(["opened", "resolved"]);
  }, 240_000);
});
