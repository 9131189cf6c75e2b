import type { Kysely } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import type { Database } from "#app/db/schema.ts";
import { parseEnv } from "#app/env.server.ts";
import { createUser } from "#app/features/auth/users.server.ts";
import { countMatchingLeads, listLeads } from "#app/features/leads/lead-admin.server.ts";
import { leadsCsvStream } from "#app/features/leads/lead-csv.server.ts";
import { findLead } from "#app/features/leads/lead-repository.server.ts";
import { anonymiseLeads, monthsBefore } from "#app/features/leads/lead-retention.server.ts";
import { POLICY_VERSION } from "#app/features/leads/lead-schema.ts";
import { createLeadService } from "#app/features/leads/lead-service.server.ts";
import { computeLeadSummary } from "#app/features/leads/lead-summary.server.ts";
import { findPerson } from "#app/features/people/people-http.server.ts";
import { claimJobLease, JobLeaseLostError } from "#app/lib/job-lease.server.ts";
import { NOTIFICATION_EMAIL } from "#app/lib/outbox/outbox.server.ts";
import { createDailyPurge, PURGE_JOB, type PurgeCategory, runPurge } from "#app/lib/purge.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { leadRow } from "../tests/support/lead-rows.ts";
import { createPeopleLeads } from "./people-leads.server.ts";
import { retentionCategories, retentionDifferingFromPolicy } from "./retention.server.ts";

// The retention purge on both databases (issue 13): a lead past LEAD_RETENTION_MONTHS is anonymised
// (out of the list, the export and the people search; the summary's counts unchanged), held spam
// past SPAM_RETENTION_DAYS is deleted, expired sessions, throttle counters and old sent emails go;
// a dry run changes nothing; one instance at a time holds the purge.

// The real time: the server's daily run reads the clock itself; every age below is relative to it.
const NOW = new Date();
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const env = parseEnv({});
const SECRET = "retention-secret-retention-secret-01";

type Db = Kysely<Database>;

/** Every row of the tables the purge touches, to prove a dry run wrote nothing. */
async function snapshot(db: Db) {
  const all = async (table: keyof Database, order: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: a snapshot of any table
    (db as Kysely<any>).selectFrom(table).selectAll().orderBy(order).execute();
  return {
    leads: await all("leads", "id"),
    notes: await all("leadNotes", "id"),
    events: await all("leadEvents", "id"),
    attributions: await all("leadAttributions", "leadId"),
    counts: await all("leadCounts", "status"),
    outbox: await all("outbox", "id"),
    notifications: await all("notifications", "id"),
    sessions: await all("sessions", "idHash"),
    loginAttempts: await all("loginAttempts", "key"),
    rateLimits: await all("rateLimits", "key"),
  };
}

describe("retention settings against the published policy", () => {
  it("name each setting that makes the privacy policy's periods untrue", () => {
    expect(retentionDifferingFromPolicy(env)).toEqual([]);
    expect(
      retentionDifferingFromPolicy(parseEnv({ LEAD_RETENTION_MONTHS: "12", ANALYTICS_RAW_DAYS: "30" })),
    ).toEqual(["LEAD_RETENTION_MONTHS=12 (the policy says 24)"]);
  });
});

describeEachDatabase("retention purge", (use) => {
  const db = () => use().db;
  const purge = (options: Partial<Parameters<typeof runPurge>[0]> = {}) =>
    runPurge({ db: db(), categories: retentionCategories(db(), env), clock: () => NOW, ...options });
  let ownerId: number;

  beforeEach(async () => {
    for (const table of [
      "leadNotes",
      "leadEvents",
      "leadStatusChanges",
      "leadAttributions",
      "outbox",
      "notifications",
      "leads",
      "sessions",
      "loginAttempts",
      "rateLimits",
      "jobLeases",
      "users",
    ] as const)
      await db().deleteFrom(table).execute();
    ownerId = (
      await createUser(db(), { username: "keeper", password: "a long enough password", isAdmin: true })
    ).id;
  });

  /** An old qualified lead with a note, an event and an attribution; a recent one; spam old and new. */
  async function seed() {
    const insert = async (row: Parameters<typeof leadRow>[0]) =>
      Number(
        (await db().insertInto("leads").values(leadRow(row)).returning("id").executeTakeFirstOrThrow()).id,
      );
    const old = await insert({
      fullName: "Olive Oldfield",
      email: "olive@oldfield.example",
      company: "Oldfield Builders",
      phone: "+44 20 7946 0101",
      message: "Call me about the Leeds project",
      status: "qualified",
      ownerId,
      createdAt: ago(800),
      updatedAt: ago(750), // more than 24 months without activity
    });
    const recent = await insert({
      fullName: "Rita Recent",
      email: "rita@recent.example",
      status: "qualified",
      createdAt: ago(800),
      updatedAt: ago(600), // a status change 20 months ago keeps it
    });
    const oldSpam = await insert({
      fullName: "Spam Old",
      email: "spam-old@example.com",
      isSpam: 1,
      createdAt: ago(45),
      updatedAt: ago(45),
    });
    const newSpam = await insert({
      fullName: "Spam New",
      email: "spam-new@example.com",
      isSpam: 1,
      createdAt: ago(10),
      updatedAt: ago(10),
    });
    await db()
      .insertInto("leadNotes")
      .values({
        leadId: old,
        body: "Olive's mobile is 07700 900123",
        authorUserId: ownerId,
        authorUsername: "keeper",
        createdAt: ago(750),
      })
      .execute();
    await db()
      .insertInto("leadEvents")
      .values({
        leadId: old,
        type: "notification_failed",
        actorUserId: null,
        actorName: null,
        detail: '{"error":"olive@oldfield.example refused"}',
        createdAt: ago(750),
      })
      .execute();
    await db()
      .insertInto("leadAttributions")
      .values({
        leadId: old,
        status: "linked",
        visitorId: null,
        submittedAt: ago(800),
        landingPage: "/demo",
        referrerHost: "www.linkedin.com",
        referrerPath: "/in/olive-oldfield",
        channel: "Social",
        utmSource: "linkedin",
        utmMedium: "social",
        utmCampaign: "launch",
        utmTerm: "olive",
        utmContent: "profile-olive",
        landedAt: ago(800),
        pagesBeforeSubmit: 2,
        secondsToSubmit: 40,
        resolvedAt: ago(800),
      })
      .execute();
    return { old, recent, oldSpam, newSpam };
  }

  async function csvText(filter: Parameters<typeof leadsCsvStream>[1]): Promise<string> {
    return new Response(leadsCsvStream(db(), filter)).text();
  }

  it("anonymises a lead after LEAD_RETENTION_MONTHS: out of the list, export and search, still counted", async () => {
    const { old, recent, newSpam } = await seed();
    const before = await computeLeadSummary(db(), NOW);
    expect(before.byStatus.qualified).toBe(2);

    const result = await purge();
    expect(result).toMatchObject({ ran: true, dryRun: false, stopped: false });
    if (!result.ran) return;
    const count = (key: string) => result.counts.find((entry) => entry.key === key)?.count;
    expect(count("leadsAnonymised")).toBe(1);
    expect(count("spamDeleted")).toBe(1);

    // The row stays, emptied of the person, with what the counts need.
    const row = await db().selectFrom("leads").selectAll().where("id", "=", old).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      fullName: "",
      email: "",
      company: "",
      phone: "",
      message: null,
      otherDetails: null,
      emailKey: "",
      status: "qualified",
      requestType: "demo",
      anonymisedAt: NOW.toISOString(),
    });
    expect(Number(row.ownerId)).toBe(ownerId);
    await expect(
      db().selectFrom("leadNotes").selectAll().where("leadId", "=", old).execute(),
    ).resolves.toEqual([]);
    await expect(
      db().selectFrom("leadEvents").selectAll().where("leadId", "=", old).execute(),
    ).resolves.toEqual([]);
    const attribution = await db()
      .selectFrom("leadAttributions")
      .selectAll()
      .where("leadId", "=", old)
      .executeTakeFirstOrThrow();
    expect(attribution).toMatchObject({
      channel: "Social",
      landingPage: "/demo",
      utmCampaign: "launch",
      referrerHost: "www.linkedin.com",
      referrerPath: null,
      utmTerm: null,
      utmContent: null,
    });

    // Gone from what staff see: the list (and its total), the export, its page, the people search.
    const list = await listLeads(db(), { page: 1, pageSize: 50, spam: "include" });
    expect(list.leads.map((lead) => lead.id).sort()).toEqual([recent, newSpam].sort());
    expect(list.total).toBe(2);
    await expect(countMatchingLeads(db(), { status: "qualified" })).resolves.toBe(1);
    await expect(countMatchingLeads(db(), { status: "qualified", from: "2020-01-01" })).resolves.toBe(1);
    const csv = await csvText({ spam: "include" });
    expect(csv).toContain("Rita Recent");
    expect(csv.trim().split("\r\n")).toHaveLength(3); // the header, Rita, the recent spam
    await expect(findLead(db(), old)).resolves.toBeUndefined();
    await expect(
      findPerson(db(), createPeopleLeads(db(), SECRET), "olive@oldfield.example"),
    ).resolves.toBeNull();

    // The summary strip's pipeline still counts it; the status views' counts (and the shell's "new"),
    // which are their lists' totals, no longer do.
    const after = await computeLeadSummary(db(), NOW);
    expect(after.byStatus).toEqual(before.byStatus);
    expect(before.listedByStatus).toEqual(before.byStatus);
    expect(after.listedByStatus.qualified).toBe(before.byStatus.qualified - 1);
    expect(after.heldSpam).toBe(1);

    // A batch chosen a moment ago leaves a lead touched since (a note, a status change) as it is.
    const cutoff = monthsBefore(NOW, env.LEAD_RETENTION_MONTHS);
    const untouched = await db()
      .transaction()
      .execute((trx) => anonymiseLeads(trx, [recent, newSpam], cutoff, NOW));
    expect(untouched).toBe(0);
    await expect(findLead(db(), recent)).resolves.toMatchObject({ fullName: "Rita Recent" });
  });

  it("deletes held spam after SPAM_RETENTION_DAYS, and keeps newer spam and anything staff touched", async () => {
    const { oldSpam, newSpam } = await seed();
    // Held 45 days ago but marked as spam by staff 5 days ago: its 30 days start then.
    const touched = Number(
      (
        await db()
          .insertInto("leads")
          .values(leadRow({ fullName: "Spam Touched", isSpam: 1, createdAt: ago(45), updatedAt: ago(5) }))
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id,
    );
    await db()
      .insertInto("leadEvents")
      .values({
        leadId: oldSpam,
        type: "spam_held",
        actorUserId: null,
        actorName: null,
        detail: null,
        createdAt: ago(45),
      })
      .execute();
    await purge();
    const left = await db().selectFrom("leads").select("id").where("isSpam", "=", 1).orderBy("id").execute();
    expect(left.map((row) => Number(row.id))).toEqual([newSpam, touched]);
    await expect(
      db().selectFrom("leadEvents").selectAll().where("leadId", "=", oldSpam).execute(),
    ).resolves.toEqual([]);
    await expect(countMatchingLeads(db(), { spam: "only" })).resolves.toBe(2);
  });

  it("deletes the bell's notifications of a lead it anonymises or of spam it deletes, with their waiting e-mails", async () => {
    const { old, recent, oldSpam } = await seed();
    const notice = async (leadId: number, title: string) => {
      const row = await db()
        .insertInto("notifications")
        .values({
          userId: ownerId,
          kind: "lead.assigned",
          title,
          link: `/admin/leads/${leadId}`,
          leadId,
          subjectId: null,
          dedupeKey: `lead.assigned:${leadId}`,
          createdAt: ago(1),
          readAt: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    };
    const mail = (notificationId: number, status: "pending" | "failed" | "sent") => ({
      kind: NOTIFICATION_EMAIL,
      payload: JSON.stringify({ notificationId }),
      status,
      nextAttemptAt: ago(1),
      lockedUntil: null,
      lastError: null,
      createdAt: ago(1),
      sentAt: status === "sent" ? ago(1) : null,
    });
    const ofOld = await notice(old, "A lead was assigned to you");
    const ofSpam = await notice(oldSpam, "A lead was assigned to you");
    const ofRecent = await notice(recent, "A lead was assigned to you");
    await db()
      .insertInto("outbox")
      .values([
        mail(ofOld, "pending"),
        mail(ofOld, "failed"),
        mail(ofSpam, "pending"),
        mail(ofRecent, "pending"),
      ])
      .execute();

    await purge();
    const left = await db().selectFrom("notifications").select(["id", "leadId"]).execute();
    expect(left.map((row) => Number(row.id))).toEqual([ofRecent]);
    const waiting = await db()
      .selectFrom("outbox")
      .select("payload")
      .where("kind", "=", NOTIFICATION_EMAIL)
      .execute();
    expect(waiting.map((row) => JSON.parse(row.payload))).toEqual([{ notificationId: ofRecent }]);
  });

  it("deletes notifications read over 90 days ago and any over a year old, and keeps the rest", async () => {
    await seed();
    const notice = (key: string, createdAt: string, readAt: string | null) => ({
      userId: ownerId,
      kind: "watch.alert",
      title: `Alert ${key}`,
      link: "/admin/watches/1",
      leadId: null,
      subjectId: null,
      dedupeKey: key,
      createdAt,
      readAt,
    });
    await db()
      .insertInto("notifications")
      .values([
        notice("read-long-ago", ago(200), ago(91)),
        notice("read-lately", ago(200), ago(89)),
        notice("unread-old", ago(300), null),
        notice("unread-over-a-year", ago(366), null),
        notice("read-lately-over-a-year", ago(400), ago(10)),
        notice("new", ago(1), null),
      ])
      .execute();
    const dry = await purge({ dryRun: true });
    if (!dry.ran) throw new Error("the dry run did not run");
    expect(dry.counts.find((entry) => entry.key === "notificationsExpired")?.count).toBe(3);
    await purge();
    const left = await db().selectFrom("notifications").select("dedupeKey").orderBy("id").execute();
    expect(left.map((row) => row.dedupeKey)).toEqual(["read-lately", "unread-old", "new"]);
  });

  it("removes expired sessions, throttle counters and sent emails past OUTBOX_RETENTION_DAYS, nothing live", async () => {
    const { recent } = await seed();
    const session = (idHash: string, expiresAt: string, lastSeenAt: string) => ({
      idHash,
      userId: ownerId,
      createdAt: ago(2),
      lastSeenAt,
      expiresAt,
    });
    await db()
      .insertInto("sessions")
      .values([
        session("expired", ago(1), ago(1)),
        session("idle", new Date(NOW.getTime() + DAY).toISOString(), ago(1)),
        session("live", new Date(NOW.getTime() + DAY).toISOString(), NOW.toISOString()),
      ])
      .execute();
    const pending = (tokenHash: string, expiresAt: string) => ({
      tokenHash,
      userId: ownerId,
      purpose: "verify" as const,
      createdAt: ago(1),
      expiresAt,
    });
    await db()
      .insertInto("pendingLogins")
      .values([pending("stale", ago(1)), pending("waiting", new Date(NOW.getTime() + 60_000).toISOString())])
      .execute();
    await db()
      .insertInto("loginAttempts")
      .values([
        { key: "over", failures: 3, windowEndsAt: NOW.getTime() - 1000 },
        { key: "open", failures: 3, windowEndsAt: NOW.getTime() + 60_000 },
      ])
      .execute();
    await db()
      .insertInto("rateLimits")
      .values([
        { key: "over", hits: "[]", expiresAt: NOW.getTime() - 1000 },
        { key: "open", hits: "[]", expiresAt: NOW.getTime() + 60_000 },
      ])
      .execute();
    const message = (kind: string, status: "sent" | "pending" | "failed", sentAt: string | null) => ({
      kind,
      payload: JSON.stringify({ leadId: recent }),
      status,
      nextAttemptAt: ago(100),
      lockedUntil: null,
      lastError: null,
      createdAt: ago(100),
      sentAt,
    });
    await db()
      .insertInto("outbox")
      .values([
        message("lead-notification", "sent", ago(91)),
        message("lead-notification", "sent", ago(89)),
        message("lead-notification", "failed", null),
        message("webhook-delivery", "sent", ago(91)),
      ])
      .execute();

    const result = await purge();
    if (!result.ran) throw new Error("the purge did not run");
    expect(Object.fromEntries(result.counts.map((entry) => [entry.key, entry.count]))).toEqual({
      spamDeleted: 1,
      leadsAnonymised: 1,
      outboxSent: 1,
      notificationsExpired: 0,
      sessionsExpired: 2,
      pendingSignInsExpired: 1,
      signInThrottleExpired: 1,
      wrongCodeCountsExpired: 0,
      rateLimitsExpired: 1,
    });
    const keys = async (table: "loginAttempts" | "rateLimits") =>
      (await db().selectFrom(table).select("key").execute()).map((row) => row.key);
    await expect(keys("loginAttempts")).resolves.toEqual(["open"]);
    await expect(keys("rateLimits")).resolves.toEqual(["open"]);
    const sessions = await db().selectFrom("sessions").select("idHash").execute();
    expect(sessions.map((row) => row.idHash)).toEqual(["live"]);
    const pendingLeft = await db().selectFrom("pendingLogins").select("tokenHash").execute();
    expect(pendingLeft.map((row) => row.tokenHash)).toEqual(["waiting"]);
    const outbox = await db()
      .selectFrom("outbox")
      .select(["kind", "status", "sentAt"])
      .orderBy("id")
      .execute();
    expect(outbox).toEqual([
      { kind: "lead-notification", status: "sent", sentAt: ago(89) },
      { kind: "lead-notification", status: "failed", sentAt: null },
      // The delivery log's rows go with the log (30 days, webhooks' own pruning).
      { kind: "webhook-delivery", status: "sent", sentAt: ago(91) },
    ]);
    // Recorded as the last run, counts only.
    const job = await db()
      .selectFrom("jobLeases")
      .selectAll()
      .where("name", "=", PURGE_JOB)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ lockedBy: null, lockedUntil: null, finishedAt: NOW.toISOString() });
    expect(JSON.parse(job.lastResult ?? "{}")).toMatchObject({ leadsAnonymised: 1, spamDeleted: 1 });
  });

  it("counts in a dry run exactly what the purge then removes, and changes nothing", async () => {
    await seed();
    await db()
      .insertInto("loginAttempts")
      .values({ key: "over", failures: 1, windowEndsAt: NOW.getTime() - 1 })
      .execute();
    const before = await snapshot(db());
    const dry = await purge({ dryRun: true });
    expect(await snapshot(db())).toEqual(before);
    await expect(db().selectFrom("jobLeases").selectAll().execute()).resolves.toEqual([]);
    const real = await purge();
    if (!dry.ran || !real.ran) throw new Error("a purge did not run");
    expect(dry.dryRun).toBe(true);
    expect(dry.counts).toEqual(real.counts);
    expect(dry.counts.find((entry) => entry.key === "leadsAnonymised")?.count).toBe(1);
    // Nothing is left for a second run.
    const again = await purge({ dryRun: true });
    if (!again.ran) throw new Error("the dry run did not run");
    expect(again.counts.every((entry) => entry.count === 0)).toBe(true);
  });

  it("runs on one instance at a time: a held lease refuses another, a lost one stops the run", async () => {
    await seed();
    // Another instance holds the lease: this one does nothing.
    await expect(claimJobLease(db(), { name: PURGE_JOB, owner: "other", now: NOW })).resolves.toBe(true);
    const before = await snapshot(db());
    await expect(purge({ owner: "this" })).resolves.toEqual({ ran: false });
    expect(await snapshot(db())).toEqual(before);
    // Its lease ran out (it died): this one takes over.
    const later = new Date(NOW.getTime() + 6 * 60_000);
    const taken = await purge({ owner: "this", clock: () => later });
    expect(taken.ran).toBe(true);

    // While one instance is purging, another asking to purge is turned away.
    await db().deleteFrom("jobLeases").execute();
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waiting: PurgeCategory = {
      key: "wait",
      label: "waits for the test",
      count: async () => 0,
      purge: async () => {
        entered();
        await gate;
        return 0;
      },
    };
    const first = runPurge({ db: db(), categories: [waiting], clock: () => NOW, owner: "a" });
    await inside;
    await expect(purge({ owner: "b" })).resolves.toEqual({ ran: false });
    release();
    await expect(first).resolves.toMatchObject({ ran: true });

    // Daily: not again within the day, again the day after.
    await expect(purge({ daily: true })).resolves.toEqual({ ran: false });
    const tomorrow = new Date(NOW.getTime() + DAY + 60_000);
    await expect(purge({ daily: true, clock: () => tomorrow })).resolves.toMatchObject({ ran: true });

    // Taken over mid-run (this instance stalled past its lease): the batch is refused, nothing written.
    await db().deleteFrom("jobLeases").execute();
    const lead = Number(
      (
        await db()
          .insertInto("leads")
          .values(leadRow({ fullName: "Stall Case", createdAt: ago(900), updatedAt: ago(900) }))
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id,
    );
    const stealing: PurgeCategory = {
      key: "steal",
      label: "another instance takes the lease",
      count: async () => 0,
      purge: async () => {
        await db()
          .updateTable("jobLeases")
          .set({ lockedBy: "thief" })
          .where("name", "=", PURGE_JOB)
          .execute();
        return 0;
      },
    };
    await expect(
      runPurge({
        db: db(),
        categories: [stealing, ...retentionCategories(db(), env)],
        clock: () => NOW,
        owner: "stalled",
      }),
    ).rejects.toBeInstanceOf(JobLeaseLostError);
    const untouched = await db()
      .selectFrom("leads")
      .select("fullName")
      .where("id", "=", lead)
      .executeTakeFirstOrThrow();
    expect(untouched.fullName).toBe("Stall Case");
  });

  it("logs the server's daily run as one line of counts, and runs it once a day", async () => {
    await seed();
    const info: string[] = [];
    const errors: string[] = [];
    const daily = createDailyPurge({
      db: db(),
      categories: retentionCategories(db(), env),
      logger: { info: (line) => info.push(line), error: (line) => errors.push(line) },
    });
    await daily.run();
    await daily.run(); // the housekeeping ten minutes later: done for today
    await daily.stop();
    expect(errors).toEqual([]);
    expect(info).toEqual([
      "Retention purge: spamDeleted 1, leadsAnonymised 1, outboxSent 0, notificationsExpired 0, sessionsExpired 0, pendingSignInsExpired 0, signInThrottleExpired 0, wrongCodeCountsExpired 0, rateLimitsExpired 0",
    ]);
  });

  it("stores the policy's latest change with each lead and gives it in the person's export", async () => {
    const service = createLeadService({
      db: db(),
      secret: SECRET,
      rateLimiter: createRateLimiter(db(), { limit: 0, windowMs: 60_000 }),
      apiKeyRateLimiter: undefined,
      notify: false,
      timeTrap: false,
    });
    const stored = await service.submit(
      {
        fullName: "Pia Policy",
        company: "Policy Build",
        phone: "+44 20 7946 0958",
        email: "pia@policy.example",
      },
      { clientAddress: "192.0.2.1", timeToken: undefined, sourcePage: "/demo", source: "form" },
    );
    if (stored.kind !== "stored") throw new Error("not stored");
    await expect(findLead(db(), stored.id)).resolves.toMatchObject({ policyVersion: POLICY_VERSION });
    const person = await findPerson(db(), createPeopleLeads(db(), SECRET), "pia@policy.example");
    expect(person?.leads.map((lead) => lead.policyVersion)).toEqual([POLICY_VERSION]);
    // Leads from before migration 020 were shown the first version, without changes.
    const earlier = await db()
      .insertInto("leads")
      .values(leadRow({ email: "early@example.com" }))
      .returning("policyVersion")
      .executeTakeFirstOrThrow();
    expect(earlier.policyVersion).toBe("2025-04-01");
  });
});
