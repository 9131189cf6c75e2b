import { beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { insertLead, type leadRow } from "../../../tests/support/lead-rows.ts";
import { createApiKey, findActiveApiKey, listApiKeys, revokeApiKey } from "./api-keys.server.ts";
import { createLeadAdmin, type LeadListQuery, listLeads, UnknownOwnerError } from "./lead-admin.server.ts";
import { leadDetail } from "./lead-admin-http.server.ts";
import { addNote } from "./lead-notes.server.ts";
import { findLead } from "./lead-repository.server.ts";
import type { LeadChange } from "./lead-service.server.ts";
import { createLeadService } from "./lead-service.server.ts";
import { computeLeadSummary } from "./lead-summary.server.ts";

// Issue 10's lead workspace on both databases: owners, spam verdicts by hand, notes, the timeline,
// contacts, bulk actions, sorting and filtering, the summary strip and API keys.

const SECRET = "workspace-secret-workspace-secret-01";
const NOW = new Date("2026-11-24T12:00:00.000Z");
const HOUR = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR);

describeEachDatabase("lead workspace", (use) => {
  const db = () => use().db;
  let alice: { id: number; username: string };
  let bob: { id: number; username: string };
  const changes: LeadChange["type"][] = [];
  let wakes = 0;
  const admin = (notify = true) =>
    createLeadAdmin({
      db: db(),
      notify,
      onLeadChange: async (_trx, change) => {
        changes.push(change.type);
      },
      onQueued: () => {
        wakes++;
      },
    });

  const addLead = (overrides: Parameters<typeof leadRow>[0] = {}) =>
    insertLead(db(), { createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(), ...overrides });

  beforeEach(async () => {
    for (const table of [
      "leadNotes",
      "leadEvents",
      "leadStatusChanges",
      "outbox",
      "leads",
      "apiKeys",
    ] as const)
      await db().deleteFrom(table).execute();
    await db().deleteFrom("users").execute();
    alice = await createUser(db(), { username: "alice", password: "Alice-Password-01", isAdmin: true });
    bob = await createUser(db(), { username: "bob", password: "Bob-Password-0001", isAdmin: true });
    changes.length = 0;
    wakes = 0;
  });

  it("assigns and unassigns an owner, records who and when, and refuses an unknown staff member", async () => {
    const id = await addLead();
    await expect(admin().setOwner(id, bob.id, alice, at(1))).resolves.toMatchObject({ ownerId: bob.id });
    await expect(admin().setOwner(id, null, alice, at(2))).resolves.toMatchObject({ ownerId: null });
    await expect(admin().setOwner(id, 999_999, alice, at(3))).rejects.toBeInstanceOf(UnknownOwnerError);
    await expect(admin().setOwner(999_999, bob.id, alice)).resolves.toBeUndefined();
    const detail = await leadDetail(db(), id);
    expect(detail?.timeline.map((entry) => entry.kind)).toEqual([
      "owner_changed",
      "owner_changed",
      "submitted",
    ]);
    expect(detail?.timeline[0]).toMatchObject({
      actor: "alice",
      from: "bob",
      to: null,
      at: at(2).toISOString(),
    });
    expect(detail?.timeline[1]).toMatchObject({ actor: "alice", from: null, to: "bob" });
    expect(changes).toEqual(["lead.updated", "lead.updated"]);
  });

  it("filters Mine and Unassigned", async () => {
    const mine = await addLead({ fullName: "Mine", ownerId: alice.id });
    await addLead({ fullName: "Bob's", ownerId: bob.id });
    const unassigned = await addLead({ fullName: "Nobody's" });
    const ids = async (ownerId: number | null) =>
      (await listLeads(db(), { ownerId, page: 1, pageSize: 10 })).leads.map((lead) => lead.id);
    await expect(ids(alice.id)).resolves.toEqual([mine]);
    await expect(ids(null)).resolves.toEqual([unassigned]);
    const listed = await listLeads(db(), { page: 1, pageSize: 10 });
    expect(listed.leads.find((lead) => lead.id === mine)?.ownerName).toBe("alice");
  });

  it("releases a held lead with Not spam: into the list, who and when recorded, its notification sent then", async () => {
    const id = await addLead({ isSpam: 1, spamReason: "honeypot field filled in", spamScore: 100 });
    expect((await listLeads(db(), { page: 1, pageSize: 10 })).total).toBe(0);
    const released = await admin().setSpam(id, false, alice, at(1));
    expect(released).toMatchObject({ isSpam: false, spamLevel: "clean" });
    expect((await listLeads(db(), { page: 1, pageSize: 10 })).total).toBe(1);
    const outbox = await db().selectFrom("outbox").select(["kind", "payload"]).execute();
    expect(outbox).toEqual([{ kind: "lead-notification", payload: JSON.stringify({ leadId: id }) }]);
    expect(changes).toEqual(["lead.spam_changed", "lead.created"]);
    expect(wakes).toBe(1);
    const timeline = (await leadDetail(db(), id))?.timeline ?? [];
    expect(timeline[0]).toMatchObject({ kind: "marked_not_spam", actor: "alice", at: at(1).toISOString() });
  });

  it("marks any lead as spam by hand, without a second notification when released again", async () => {
    const id = await addLead();
    await expect(admin().setSpam(id, true, bob, at(1))).resolves.toMatchObject({
      isSpam: true,
      spamLevel: "held",
    });
    expect((await listLeads(db(), { spam: "only", page: 1, pageSize: 10 })).total).toBe(1);
    await admin(false).setSpam(id, false, bob, at(2));
    expect(await db().selectFrom("outbox").selectAll().execute()).toEqual([]);
    const kinds = (await leadDetail(db(), id))?.timeline.map((entry) => entry.kind);
    expect(kinds).toEqual(["marked_not_spam", "marked_spam", "submitted"]);
  });

  it("clears a review mark with Not spam, keeping the signals on record", async () => {
    const id = await addLead({
      spamScore: 10,
      spamSignals: JSON.stringify([{ signal: "token-missing", points: 10, detail: "no page cookie" }]),
    });
    expect((await findLead(db(), id))?.spamLevel).toBe("review");
    const judged = await admin().setSpam(id, false, alice);
    expect(judged).toMatchObject({
      spamLevel: "clean",
      spamScore: 10,
      spamReasons: ["no page cookie (+10)"],
    });
    expect(changes).toEqual([]);
  });

  it("keeps notes as written, newest first, with author and time", async () => {
    const id = await addLead();
    await addNote(db(), id, "Called: wants a demo\nnext Tuesday", alice, at(1));
    await addNote(db(), id, "<b>Sent</b> the deck & pricing", bob, at(2));
    await expect(addNote(db(), 999_999, "x", alice)).resolves.toBeUndefined();
    const detail = await leadDetail(db(), id);
    expect(detail?.notes).toEqual([
      expect.objectContaining({
        body: "<b>Sent</b> the deck & pricing",
        author: "bob",
        createdAt: at(2).toISOString(),
      }),
      expect.objectContaining({ body: "Called: wants a demo\nnext Tuesday", author: "alice" }),
    ]);
    expect(detail?.timeline.filter((entry) => entry.kind === "note")).toHaveLength(2);
  });

  it("shows the whole timeline newest first: status, owner, notes, spam and notifications", async () => {
    const id = await addLead({ source: "Partner CRM" });
    await admin().setStatus(id, "contacted", alice, at(1));
    await admin().setOwner(id, alice.id, alice, at(2));
    await addNote(db(), id, "Good fit", alice, at(3));
    await db()
      .insertInto("leadEvents")
      .values([
        {
          leadId: id,
          type: "notification_failed",
          actorUserId: null,
          actorName: null,
          detail: JSON.stringify({ attempt: 1, error: "ECONNREFUSED", final: false }),
          createdAt: at(0.5).toISOString(),
        },
        {
          leadId: id,
          type: "notification_sent",
          actorUserId: null,
          actorName: null,
          detail: null,
          createdAt: at(0.6).toISOString(),
        },
      ])
      .execute();
    const timeline = (await leadDetail(db(), id))?.timeline ?? [];
    expect(timeline.map((entry) => entry.kind)).toEqual([
      "note",
      "owner_changed",
      "status",
      "notification_sent",
      "notification_failed",
      "submitted",
    ]);
    expect(timeline.at(-1)).toMatchObject({ kind: "submitted", source: "Partner CRM" });
    expect(timeline[2]).toMatchObject({ actor: "alice", from: "new", to: "contacted" });
  });

  it("groups a person's submissions by email, case and spaces aside, and marks the later ones returning", async () => {
    const service = createLeadService({
      db: db(),
      secret: SECRET,
      rateLimiter: createRateLimiter(db(), { limit: 0, windowMs: 60_000 }),
      notify: false,
      timeTrap: false,
    });
    const person = { fullName: "Amara Okafor", company: "Okafor Build", phone: "+44 20 7946 0958" };
    const submit = async (email: string, extra = {}) => {
      const result = await service.submit(
        { ...person, email, ...extra },
        { clientAddress: "192.0.2.1", timeToken: undefined, sourcePage: null },
      );
      if (result.kind !== "stored") throw new Error("not stored");
      return result.id;
    };
    const held = await submit("AMARA@okafor.example", { _gotcha: "bot" });
    const first = await submit("amara@okafor.example");
    const second = await submit("  Amara@Okafor.example ");
    const other = await submit("someone@else.example");
    const listed = await listLeads(db(), { spam: "include", page: 1, pageSize: 10 });
    const returning = Object.fromEntries(listed.leads.map((lead) => [lead.id, lead.returning]));
    // A held submission is not an earlier contact: only genuine ones make a person returning.
    expect(returning).toEqual({ [first]: false, [held]: false, [second]: true, [other]: false });
    const detail = await leadDetail(db(), second);
    expect(detail?.returning).toBe(true);
    expect(detail?.otherSubmissions.map((lead) => [lead.id, lead.isSpam])).toEqual([
      [first, false],
      [held, true],
    ]);
  });

  it("sorts by name, company and status in the database, the same on both, ids breaking ties", async () => {
    const ids = {
      zoe: await addLead({ fullName: "Zoë Adams", company: "beta", status: "customer" }),
      anna: await addLead({ fullName: "anna Zed", company: "Alpha", status: "new" }),
      emile: await addLead({ fullName: "Émile Brun", company: "alpha", status: "qualified" }),
      bob: await addLead({ fullName: "Bob", company: "Gamma", status: "contacted" }),
    };
    const order = async (sort: "fullName" | "company" | "status" | "createdAt", dir?: "asc" | "desc") =>
      (await listLeads(db(), { sort, order: dir, page: 1, pageSize: 10 })).leads.map((lead) => lead.id);
    // Case-folded, then by code point: "é" sorts after every ASCII letter on both databases.
    await expect(order("fullName")).resolves.toEqual([ids.anna, ids.bob, ids.zoe, ids.emile]);
    await expect(order("fullName", "desc")).resolves.toEqual([ids.emile, ids.zoe, ids.bob, ids.anna]);
    await expect(order("company")).resolves.toEqual([ids.anna, ids.emile, ids.zoe, ids.bob]);
    await expect(order("company", "desc")).resolves.toEqual([ids.bob, ids.zoe, ids.emile, ids.anna]);
    await expect(order("status")).resolves.toEqual([ids.anna, ids.bob, ids.emile, ids.zoe]);
    await expect(order("createdAt")).resolves.toEqual([ids.bob, ids.emile, ids.anna, ids.zoe]);
  });

  it("orders one status's leads by status as by id, unassigned and an owner's alike (issue 23's indexes)", async () => {
    const first = await addLead({ fullName: "Cara", company: "beta", status: "new" });
    const second = await addLead({ fullName: "anna", company: "Alpha", status: "new" });
    const third = await addLead({ fullName: "Bea", company: "alpha", status: "new" });
    const mine = await addLead({ fullName: "Dan", company: "Gamma", status: "new" });
    await addLead({ fullName: "Eve", status: "contacted" });
    await admin().setOwner(mine, bob.id, alice);
    const ids = async (query: Omit<LeadListQuery, "page" | "pageSize">) =>
      (await listLeads(db(), { ...query, page: 1, pageSize: 10 })).leads.map((lead) => lead.id);
    const unassigned = { status: "new", ownerId: null } as const;
    await expect(ids({ ...unassigned, sort: "status" })).resolves.toEqual([first, second, third]);
    await expect(ids({ ...unassigned, sort: "status", order: "desc" })).resolves.toEqual([
      third,
      second,
      first,
    ]);
    await expect(ids({ ...unassigned, sort: "company" })).resolves.toEqual([second, third, first]);
    await expect(ids({ ...unassigned, sort: "fullName", order: "desc" })).resolves.toEqual([
      first,
      third,
      second,
    ]);
    await expect(ids({ ownerId: bob.id })).resolves.toEqual([mine]);
    await expect(ids({ ownerId: bob.id, sort: "company" })).resolves.toEqual([mine]);
  });

  it("filters by type and by a UTC date range, both ends inclusive", async () => {
    const day = (date: string) => ({ createdAt: date, updatedAt: date });
    const early = await addLead({ ...day("2026-11-01T00:00:00.000Z"), requestType: "investor" });
    const late = await addLead(day("2026-11-03T23:59:59.999Z"));
    await addLead(day("2026-11-04T00:00:00.000Z"));
    await addLead(day("2026-10-31T23:59:59.999Z"));
    const ids = async (filter: { from?: string; to?: string; type?: "demo" | "investor" }) =>
      (await listLeads(db(), { ...filter, page: 1, pageSize: 10 })).leads.map((lead) => lead.id).sort();
    await expect(ids({ from: "2026-11-01", to: "2026-11-03" })).resolves.toEqual([early, late].sort());
    await expect(ids({ type: "investor" })).resolves.toEqual([early]);
  });

  it("applies a bulk action to every ticked lead in one go and names the ones that do not exist", async () => {
    const a = await addLead();
    const b = await addLead();
    await expect(
      admin().bulk([a, b, 999_999], { action: "status", value: "qualified" }, alice),
    ).resolves.toEqual({
      changed: 2,
      missing: [999_999],
    });
    await admin().bulk([a, b], { action: "owner", value: bob.id }, alice);
    await admin().bulk([a], { action: "spam", value: true }, alice);
    expect(await findLead(db(), a)).toMatchObject({ status: "qualified", ownerId: bob.id, isSpam: true });
    expect(await findLead(db(), b)).toMatchObject({ status: "qualified", ownerId: bob.id, isSpam: false });
    // One bad owner refuses the whole action: nothing half-done.
    await expect(admin().bulk([a, b], { action: "owner", value: 999_999 }, alice)).rejects.toBeInstanceOf(
      UnknownOwnerError,
    );
    expect((await findLead(db(), b))?.ownerId).toBe(bob.id);
  });

  it("erases a lead with its notes and events", async () => {
    const id = await addLead();
    await addNote(db(), id, "note", alice);
    await admin().setOwner(id, alice.id, alice);
    await expect(admin().remove(id, alice, "203.0.113.9")).resolves.toBe(true);
    expect(await db().selectFrom("leadNotes").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("leadEvents").selectAll().execute()).toEqual([]);
    expect(changes.at(-1)).toBe("lead.deleted");
    // The erasure is in the access log: who, which lead (by id only), from which network.
    const logged = await db().selectFrom("accessLog").selectAll().where("leadId", "=", id).execute();
    expect(logged).toMatchObject([
      { action: "lead_erased", actorUsername: alice.username, network: "203.0.113.x", detail: null },
    ]);
    await expect(admin().remove(id, alice, "203.0.113.9")).resolves.toBe(false);
  });

  it("sums up new leads, the pipeline, held spam and the median speed to lead", async () => {
    await addLead({ createdAt: at(-1).toISOString() });
    await addLead({ createdAt: at(-30).toISOString(), status: "contacted", firstResponseMs: 2 * HOUR });
    await addLead({ createdAt: at(-24 * 5).toISOString(), status: "qualified", firstResponseMs: 4 * HOUR });
    await addLead({ createdAt: at(-24 * 6).toISOString(), status: "customer", firstResponseMs: 30 * HOUR });
    await addLead({ createdAt: at(-24 * 20).toISOString(), status: "contacted", firstResponseMs: 10 * HOUR });
    await addLead({ createdAt: at(-24 * 40).toISOString(), status: "contacted", firstResponseMs: 1 });
    await addLead({ createdAt: at(-2).toISOString(), isSpam: 1 });
    const summary = await computeLeadSummary(db(), NOW);
    expect(summary).toMatchObject({
      newToday: 1,
      new7Days: 4,
      new30Days: 5,
      heldSpam: 1,
      byStatus: { new: 1, contacted: 3, qualified: 1, unqualified: 0, customer: 1 },
      // 2 h, 4 h, 10 h, 30 h: the median of an even count is the mean of the middle two.
      speedToLead: { medianMs: 7 * HOUR, responded: 4, waiting: 1 },
    });
  });

  it("records the first response time once, at the first status change", async () => {
    const id = await addLead();
    await admin().setStatus(id, "contacted", alice, at(3));
    await admin().setStatus(id, "qualified", alice, at(9));
    const row = await db()
      .selectFrom("leads")
      .select("firstResponseMs")
      .where("id", "=", id)
      .executeTakeFirst();
    expect(Number(row?.firstResponseMs)).toBe(3 * HOUR);
  });

  it("makes API keys shown once, stored as a hash, refused once revoked", async () => {
    const created = await createApiKey(db(), "  HubSpot sync ", alice, NOW);
    expect(created.key).toMatch(/^cbk_[A-Za-z0-9_-]{43}$/);
    expect(created.name).toBe("HubSpot sync");
    const stored = await db().selectFrom("apiKeys").selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(10));
    await expect(findActiveApiKey(db(), created.key)).resolves.toEqual({
      id: created.id,
      name: "HubSpot sync",
    });
    await expect(findActiveApiKey(db(), `${created.key}x`)).resolves.toBeNull();
    await expect(createApiKey(db(), "hubspot SYNC", alice)).rejects.toThrow(/exists already/);
    await expect(createApiKey(db(), "Form", alice)).rejects.toThrow(/reserved/);
    await expect(createApiKey(db(), "x", alice)).rejects.toThrow(/at least 2/);
    await expect(revokeApiKey(db(), created.id, bob)).resolves.toBe(true);
    await expect(findActiveApiKey(db(), created.key)).resolves.toBeNull();
    const [listed] = await listApiKeys(db());
    expect(listed).toMatchObject({ name: "HubSpot sync", createdBy: "alice", revokedBy: "bob" });
    expect(listed).not.toHaveProperty("key");
    // The name is free again once the old key is revoked.
    await expect(createApiKey(db(), "HubSpot sync", alice)).resolves.toMatchObject({ name: "HubSpot sync" });
  });
});
