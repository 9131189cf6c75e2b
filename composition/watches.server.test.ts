import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEnv } from "#app/env.server.ts";
import { type GradedSite, startGradedSite } from "#app/features/audits/testing/test-servers.ts";
import { type WatchServices, watchServicesKey } from "#app/features/audits/watches/watch-context.server.ts";
import { WatchRunningError } from "#app/features/audits/watches/watch-run.server.ts";
import { createWatchScheduler } from "#app/features/audits/watches/watch-scheduler.server.ts";
import { createWatch } from "#app/features/audits/watches/watch-service.server.ts";
import { listAlerts, listRuns, watchLeaseName } from "#app/features/audits/watches/watch-store.server.ts";
import { startTestReceiver, type TestReceiver } from "#app/features/webhooks/testing/test-receiver.ts";
import { createWebhook } from "#app/features/webhooks/webhook-service.server.ts";
import { startTestSmtp, type TestSmtp } from "#app/lib/testing/test-smtp.ts";
import { checkPostgres, createEmptyDatabaseUrl } from "../tests/support/databases.ts";
import { type BackgroundWork, createServices, type Services } from "./services.server.ts";

// Issue 25's proof, wired as the server wires it, on both databases: two instances (two sets of
// services on one database) look for due watches at the same moment; a site whose security grade
// drops between runs gets one alert, and one resolved notice when it recovers, each delivered once:
// one signed `audit.alert` webhook and one email per change, across both instances.

const SECRET = "test-secret-test-secret-test-secret";
const watchServicesOf = (services: Services) =>
  services.provided.find(([key]) => key === watchServicesKey)?.[1] as WatchServices;

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`watches on two instances [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let site: GradedSite;
    let receiver: TestReceiver;
    let smtp: TestSmtp;
    const instances: Services[] = [];
    let dispose = async () => {};

    beforeAll(async () => {
      if (!available) return;
      site = await startGradedSite();
      receiver = await startTestReceiver();
      smtp = await startTestSmtp();
      const database = await createEmptyDatabaseUrl(kind);
      const databaseUrl = database.url;
      dispose = database.dispose;
      const env = parseEnv({
        DATABASE_URL: databaseUrl,
        APP_SECRET: SECRET,
        LOG_LEVEL: "silent",
        AUDIT_ALLOW_PRIVATE_TARGETS: "true",
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        SMTP_URL: smtp.url,
        LEAD_NOTIFICATION_TO: "sales@clausebridge.test",
        WATCH_POLL_SECONDS: "3600",
      });
      // One after the other: both migrate the same database.
      instances.push(await createServices(env));
      instances.push(await createServices(env));
    }, 60_000);

    afterAll(async () => {
      for (const services of instances) await services.database.close();
      await site?.close();
      await receiver?.close();
      await smtp?.close();
      await dispose();
    });

    if (!available) return;

    it("runs a due watch once, alerts once on a grade drop and once when it recovers, each notice delivered once", async () => {
      const [a, b] = instances as [Services, Services];
      const db = a.database.db;
      const hook = await createWebhook(db, { url: receiver.url, events: ["audit.alert"] }, "tester", {
        allowPrivate: true,
      });
      if (!hook.ok) throw new Error(hook.message);
      receiver.secret = hook.webhook.secret;
      const created = await createWatch(
        db,
        {
          url: `${site.origin}/`,
          checks: ["security", "performance"],
          every: "daily",
          recipients: "ops@example.com",
        },
        "tester",
        { allowPrivate: true, checks: watchServicesOf(a).checks },
      );
      if (!created.ok) throw new Error(created.message);
      const watchId = created.watch.id;
      // Its first run is its own slot of the day, after now.
      expect(Date.parse(created.watch.nextRunAt)).toBeGreaterThan(Date.now());

      const schedulers = [a, b].map((services) =>
        createWatchScheduler({
          db: services.database.db,
          runWatch: watchServicesOf(services).runWatch,
          pollMs: 3_600_000,
          logger: { error: (message) => expect.fail(message) },
        }),
      );
      const makeDue = () =>
        db
          .updateTable("watches")
          .set({ nextRunAt: new Date(Date.now() - 1000).toISOString() })
          .where("id", "=", watchId)
          .execute();
      const bothLook = () => Promise.all(schedulers.map((scheduler) => scheduler.tick()));
      const outboxCount = async (outboxKind: string) =>
        Number(
          (
            await db
              .selectFrom("outbox")
              .select((eb) => eb.fn.countAll().as("count"))
              .where("kind", "=", outboxKind)
              .executeTakeFirstOrThrow()
          ).count,
        );

      // Nothing is due yet: neither instance runs it.
      await bothLook();
      expect(await listRuns(db, watchId)).toHaveLength(0);

      await makeDue();
      await bothLook();
      let runs = await listRuns(db, watchId);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        trigger: "schedule",
        status: "ok",
        securityGrade: "C+",
        httpStatus: 200,
      });
      expect(await listAlerts(db, watchId)).toEqual([]);
      // The schedule moved on to the next day's slot.
      const after = await db
        .selectFrom("watches")
        .select("nextRunAt")
        .where("id", "=", watchId)
        .executeTakeFirstOrThrow();
      expect(Date.parse(after.nextRunAt) - Date.now()).toBeGreaterThan(0);
      expect(Date.parse(after.nextRunAt) - Date.now()).toBeLessThanOrEqual(86_400_000);

      // The site loses its headers: the grade drops to F, one alert.
      site.setGood(false);
      await makeDue();
      await bothLook();
      // Still F at the next run: no second alert.
      await makeDue();
      await bothLook();
      runs = await listRuns(db, watchId);
      expect(runs.map((run) => run.securityGrade)).toEqual(["F", "F", "C+"]);
      let alerts = await listAlerts(db, watchId);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({
        condition: "security-grade-drop",
        resolvedAt: null,
        message: "The security grade dropped from C+ to F.",
        openedNotices: 2,
      });
      expect(await outboxCount("webhook-delivery")).toBe(1);
      expect(await outboxCount("watch-alert-email")).toBe(1);

      // It recovers: the alert is resolved, one resolved notice.
      site.setGood(true);
      await makeDue();
      await bothLook();
      alerts = await listAlerts(db, watchId);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]?.resolvedAt).not.toBeNull();
      expect(alerts[0]).toMatchObject({
        resolvedNotices: 2,
        resolvedMessage: "The security grade is back to C+ (was C+ before the drop).",
      });
      expect(await listRuns(db, watchId)).toHaveLength(4);
      expect(await outboxCount("webhook-delivery")).toBe(2);
      expect(await outboxCount("watch-alert-email")).toBe(2);

      // Both instances' outbox workers deliver: each notice exactly once.
      const background: BackgroundWork[] = [
        a.startBackgroundWork({ info: () => {} }),
        b.startBackgroundWork({ info: () => {} }),
      ];
      try {
        await vi.waitFor(
          () => {
            expect(receiver.received).toHaveLength(2);
            expect(smtp.received).toHaveLength(2);
          },
          { timeout: 20_000, interval: 100 },
        );
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(receiver.received).toHaveLength(2);
        expect(smtp.received).toHaveLength(2);
      } finally {
        for (const work of background) await work.stop();
      }
      // Two instances send side by side: in either order.
      const bodies = receiver.received
        .map((delivery) => JSON.parse(delivery.body))
        .sort((x, y) => x.data.alert.status.localeCompare(y.data.alert.status));
      expect(receiver.received.every((delivery) => delivery.verified)).toBe(true);
      expect(bodies.map((body) => [body.event, body.data.alert.status, body.data.alert.condition])).toEqual([
        ["audit.alert", "opened", "security-grade-drop"],
        ["audit.alert", "resolved", "security-grade-drop"],
      ]);
      expect(bodies[0].data.watch).toEqual({ id: watchId, url: `${site.origin}/` });
      expect(smtp.received.map((mail) => mail.to)).toEqual([["ops@example.com"], ["ops@example.com"]]);
      const subjects = smtp.received.map((mail) => mail.subject).sort();
      expect(subjects[0]).toMatch(/^Alert: Security grade dropped/);
      expect(subjects[1]).toMatch(/^Resolved: Security grade dropped/);
    }, 120_000);

    it("retries a run whose instance died (its lease ran out), skips one another instance holds, and records a dead site as failed checks", async () => {
      const [a] = instances as [Services];
      const db = a.database.db;
      const { runWatch, checks } = watchServicesOf(a);
      const created = await createWatch(
        db,
        {
          url: "http://127.0.0.1:1/",
          checks: ["security", "performance"],
          every: "hourly",
          recipients: ["ops@example.com"],
        },
        "tester",
        { allowPrivate: true, checks },
      );
      if (!created.ok) throw new Error(created.message);
      const id = created.watch.id;
      await db
        .updateTable("watches")
        .set({ nextRunAt: new Date(Date.now() - 1000).toISOString() })
        .where("id", "=", id)
        .execute();
      const scheduler = createWatchScheduler({
        db,
        runWatch,
        pollMs: 3_600_000,
        logger: { error: (message) => expect.fail(message) },
      });

      // Another instance is running it (its lease is live): not run here, and "Run now" says so.
      await db
        .insertInto("jobLeases")
        .values({
          name: watchLeaseName(id),
          lockedBy: "other",
          lockedUntil: new Date(Date.now() + 60_000).toISOString(),
          finishedAt: null,
          lastResult: null,
        })
        .execute();
      await scheduler.tick();
      expect(await listRuns(db, id)).toHaveLength(0);
      await expect(runWatch(id, "manual")).rejects.toBeInstanceOf(WatchRunningError);

      // That instance died mid-run: once its lease runs out, the run is retried here, once.
      await db
        .updateTable("jobLeases")
        .set({ lockedUntil: new Date(Date.now() - 1000).toISOString() })
        .where("name", "=", watchLeaseName(id))
        .execute();
      await scheduler.tick();
      await scheduler.tick();
      const runs = await listRuns(db, id);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: "failed", httpStatus: 0, securityGrade: null });
      const alerts = await listAlerts(db, id);
      expect(alerts.map((alert) => [alert.condition, alert.message])).toEqual([
        ["site-down", "The site did not answer."],
      ]);
    }, 60_000);
  });
}
