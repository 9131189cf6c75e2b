import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { queueWebhookEvent } from "#app/features/webhooks/webhook-store.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { parseCsvOffThread } from "./import/csv-worker.server.ts";
import { guessMapping, readMapping } from "./import/import-mapping.ts";
import { countMatchingLeads, findLeadListItem, UnknownOwnerError } from "./lead-admin.server.ts";
import { createLeadIntake, type LeadIntake } from "./lead-intake.server.ts";
import type { LeadChangeHook } from "./lead-service.server.ts";
import { leadTimeline } from "./lead-timeline.server.ts";
import { parseManualLead } from "./manual-lead-schema.ts";

const SECRET = "test-secret-for-intake-0123456789";

const ALICE = {
  fullName: "Alice Martin",
  email: "alice@example.com",
  company: "Martin Build",
  phone: "+44 20 7946 0001",
  message: "Met at the trade show",
  source: "event",
};

const csv = (lines: string[]) => new TextEncoder().encode(`${lines.join("\r\n")}\r\n`);

describe("the manual lead schema", () => {
  it("applies the public form's rules and messages, and asks for a source", () => {
    const result = parseManualLead({ fullName: "", email: "nope", company: "A", phone: "12", source: "fax" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toMatchObject({
      fullName: "Please enter your full name",
      email: "Please enter a valid email address",
      phone: "Please enter a valid phone number",
      source: "Choose where the lead came from",
    });
  });
});

describeEachDatabase("leads that do not come from the website", (use) => {
  const db = () => use().db;
  let intake: LeadIntake;
  let staff: { id: number; username: string };
  let queued: number;

  beforeAll(async () => {
    const user = await createUser(db(), {
      username: "sam",
      password: "a long enough password 1",
      isAdmin: true,
    });
    staff = { id: user.id, username: user.username };
  });

  beforeEach(async () => {
    for (const table of [
      "leadImportChanges",
      "leadImports",
      "leadEvents",
      "webhookDeliveries",
      "outbox",
      "leads",
      "accessLog",
      "webhooks",
    ] as const)
      await db().deleteFrom(table).execute();
    await db()
      .insertInto("webhooks")
      .values({
        url: "https://hooks.example.com/in",
        events: JSON.stringify(["lead.created", "lead.updated", "lead.deleted"]),
        secret: "s",
        createdAt: new Date().toISOString(),
        createdBy: "tester",
        secretRotatedAt: null,
      })
      .execute();
    queued = 0;
    const onLeadChange: LeadChangeHook = (trx, change) =>
      queueWebhookEvent(trx, {
        type: change.type,
        webhooks: change.webhooks,
        lead: () => findLeadListItem(trx, change.leadId),
        occurredAt: change.occurredAt,
      });
    intake = createLeadIntake({ db: db(), secret: SECRET, onLeadChange, onQueued: () => queued++ });
  });

  const deliveries = async (type: string) =>
    (await db().selectFrom("webhookDeliveries").select("eventType").where("eventType", "=", type).execute())
      .length;

  it("adds a lead by hand into the pipeline: owner, timeline, webhook, counts, access log, no spam verdict", async () => {
    const parsed = parseManualLead({ ...ALICE, ownerId: String(staff.id) });
    if (!parsed.success) throw new Error(JSON.stringify(parsed.errors));
    const before = await countMatchingLeads(db(), {});
    const lead = await intake.add(parsed.data, staff, "203.0.113.9");

    expect(lead).toMatchObject({
      fullName: "Alice Martin",
      source: "staff:event",
      ownerId: staff.id,
      ownerName: "sam",
      isSpam: false,
      spamScore: 0,
      spamReasons: [],
      spamLevel: "clean",
      status: "new",
    });
    expect(await countMatchingLeads(db(), {})).toBe(before + 1);
    expect(await deliveries("lead.created")).toBe(1);
    expect(queued).toBe(1);
    const row = await db()
      .selectFrom("leads")
      .select(["addedByUsername", "spamSignals"])
      .where("id", "=", lead.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ addedByUsername: "sam", spamSignals: null });
    const timeline = await leadTimeline(db(), lead);
    expect(timeline.map((entry) => entry.kind)).toEqual(
      expect.arrayContaining(["added_by_staff", "owner_changed", "submitted"]),
    );
    expect(timeline.some((entry) => entry.kind === "spam_held")).toBe(false);
    const log = await db().selectFrom("accessLog").select(["action", "leadId", "actorUsername"]).execute();
    expect(log).toEqual([{ action: "lead_added", leadId: lead.id, actorUsername: "sam" }]);
  });

  it("refuses an owner who is not an enabled staff member", async () => {
    const parsed = parseManualLead({ ...ALICE, ownerId: "999999" });
    if (!parsed.success) throw new Error("invalid");
    await expect(intake.add(parsed.data, staff, null)).rejects.toBeInstanceOf(UnknownOwnerError);
    expect(await db().selectFrom("leads").select("id").execute()).toHaveLength(0);
  });

  async function table(lines: string[]) {
    const parsed = await parseCsvOffThread(csv(lines));
    if (!parsed.ok) throw new Error(parsed.message);
    const mapping = readMapping(guessMapping(parsed.header), parsed.header);
    if (!mapping.ok) throw new Error(mapping.message);
    return { parsed, mapping: mapping.mapping };
  }

  it("dry-runs, commits, merges by email (shown per row) and undoes the whole batch", async () => {
    const existing = parseManualLead({ ...ALICE, company: "Old Name Ltd" });
    if (!existing.success) throw new Error("invalid");
    const alice = await intake.add(existing.data, staff, null);
    await db().deleteFrom("webhookDeliveries").execute();

    const { parsed, mapping } = await table([
      "Name,E-mail,Organisation,Telephone,Notes",
      "Bob Stone,bob@example.com,Stone & Co,+44 20 7946 0002,",
      "Alice Martin,ALICE@example.com,Martin Build,,Wants a demo",
      ",not-an-email,,12,",
      "Carol Vale,bob@example.com,Vale Ltd,+44 20 7946 0003,",
    ]);
    expect(mapping).toEqual({ fullName: 0, email: 1, company: 2, phone: 3, message: 4 });

    const plan = await intake.plan(parsed, mapping);
    expect(plan.counts).toEqual({ imported: 1, merged: 1, failed: 2 });
    const merge = plan.rows.find((row) => row.kind === "merge");
    expect(merge).toMatchObject({
      row: 3,
      into: { id: alice.id, fullName: "Alice Martin" },
      changes: ["company", "message"],
    });
    const errors = plan.rows.filter((row) => row.kind === "error");
    expect(errors.map((row) => row.row)).toEqual([4, 5]);
    expect(errors[0]).toMatchObject({
      errors: { fullName: "Please enter your full name", email: "Please enter a valid email address" },
    });
    expect(errors[1]).toMatchObject({ errors: { email: "The same email is on row 2" } });
    // The dry run wrote nothing.
    expect(await db().selectFrom("leads").select("id").execute()).toHaveLength(1);

    const result = await intake.commit(plan, {
      fileName: "summit.csv",
      source: "event",
      ownerId: null,
      actor: staff,
      clientAddress: null,
    });
    expect(result).toMatchObject({ imported: 1, merged: 1, failed: 2 });
    const bob = await db()
      .selectFrom("leads")
      .select(["id", "source", "addedByUsername"])
      .where("emailKey", "=", "bob@example.com")
      .executeTakeFirstOrThrow();
    expect(bob).toMatchObject({ source: "staff:event", addedByUsername: "sam" });
    const merged = await db()
      .selectFrom("leads")
      .select(["company", "message"])
      .where("id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(merged).toEqual({ company: "Martin Build", message: "Wants a demo" });
    expect(await deliveries("lead.created")).toBe(1);
    expect(await deliveries("lead.updated")).toBe(1);
    const timeline = await leadTimeline(db(), { ...alice });
    expect(timeline[0]).toMatchObject({
      kind: "merged_from_import",
      fileName: "summit.csv",
      fields: ["Company", "Message"],
    });

    const undone = await intake.undo(result.importId, { actor: staff, clientAddress: null });
    expect(undone).toMatchObject({ removed: 1, reverted: 1 });
    expect(
      await db().selectFrom("leads").select("id").where("emailKey", "=", "bob@example.com").execute(),
    ).toHaveLength(0);
    const reverted = await db()
      .selectFrom("leads")
      .select(["company", "message"])
      .where("id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(reverted).toEqual({ company: "Old Name Ltd", message: "Met at the trade show" });
    expect(await deliveries("lead.deleted")).toBe(1);
    await expect(intake.undo(result.importId, { actor: staff, clientAddress: null })).rejects.toThrow(
      /cannot be undone/,
    );
    const actions = (await db().selectFrom("accessLog").select("action").orderBy("id").execute()).map(
      (row) => row.action,
    );
    expect(actions).toEqual(["lead_added", "leads_imported", "lead_import_undone"]);
  });

  it("undoing an earlier import keeps what a later import changed again", async () => {
    const existing = parseManualLead({ ...ALICE, company: "First Ltd" });
    if (!existing.success) throw new Error("invalid");
    const alice = await intake.add(existing.data, staff, null);
    const importCompany = async (company: string) => {
      const { parsed, mapping } = await table(["Email,Company", `alice@example.com,${company}`]);
      return intake.commit(await intake.plan(parsed, mapping), {
        fileName: `${company}.csv`,
        source: "event",
        ownerId: null,
        actor: staff,
        clientAddress: null,
      });
    };
    const first = await importCompany("Second Ltd");
    await importCompany("Third Ltd");
    await intake.undo(first.importId, { actor: staff, clientAddress: null });
    const lead = await db()
      .selectFrom("leads")
      .select("company")
      .where("id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(lead.company).toBe("Third Ltd");
  });

  it("neutralises formula cells on the way in (the phone keeps its +)", async () => {
    const { parsed, mapping } = await table([
      "Full name,Email,Company,Phone,Message",
      '"=HYPERLINK(""http://evil.example"",""click"")",eve@example.com,＠SUM(A1),+44 20 7946 0004,"-2+3"',
      "Dan Hill,@dan@example.com,+Plus Ltd,+1 555 0100,\tnote",
    ]);
    const plan = await intake.plan(parsed, mapping);
    const leads = plan.rows.map((row) => (row.kind === "error" ? row.errors : row.lead));
    expect(leads[0]).toMatchObject({
      fullName: `'=HYPERLINK("http://evil.example","click")`,
      company: "'＠SUM(A1)",
      phone: "+44 20 7946 0004",
      message: "'-2+3",
    });
    // An email starting with @ is not an address: refused, never stored.
    expect(leads[1]).toMatchObject({ email: "Please enter a valid email address" });
  });

  it("refuses a person erased on request", async () => {
    const { suppressionKey } = await import("./lead-erasure.server.ts");
    await db()
      .insertInto("erasureSuppressions")
      .values({
        emailHmac: suppressionKey(SECRET, "gone@example.com"),
        erasedAt: "2026-10-01T00:00:00.000Z",
        reason: "request",
      })
      .execute();
    const { parsed, mapping } = await table([
      "Name,Email,Company,Phone",
      "Gina Gone,gone@example.com,Gone Ltd,+44 20 7946 0005",
    ]);
    const plan = await intake.plan(parsed, mapping);
    expect(plan.rows[0]).toMatchObject({
      kind: "error",
      errors: { email: "This person asked to be erased on 2026-10-01: not imported" },
    });
    await db().deleteFrom("erasureSuppressions").execute();
  });

  it("imports 10,000 rows in one batch (target: under 10 s) and undoes them", async () => {
    const lines = ["Full name,Email,Company,Phone,Message"];
    for (let i = 0; i < 10_000; i++)
      lines.push(
        `Person ${i},person${i}@example.com,Company ${i % 300},+44 20 7946 ${String(i).padStart(4, "0")},Row ${i}`,
      );
    const bytes = csv(lines);
    // Measured without webhook subscribers (each adds a delivery per lead, queued in the same batch).
    await db().deleteFrom("webhooks").execute();
    const started = performance.now();
    const parsed = await parseCsvOffThread(bytes);
    if (!parsed.ok) throw new Error(parsed.message);
    const t1 = performance.now();
    const plan = await intake.plan(parsed, guessMapping(parsed.header));
    const t2 = performance.now();
    console.info(`parse ${(t1 - started).toFixed(0)} ms, plan ${(t2 - t1).toFixed(0)} ms`);
    // Other requests are served while it commits (issue 32): the event loop gets turns, counted by
    // a timer. On SQLite the whole transaction used to run without one (0.5 s and more on the loop).
    let turns = 0;
    const timer = setInterval(() => turns++, 1);
    const result = await intake.commit(plan, {
      fileName: "big.csv",
      source: "event",
      ownerId: staff.id,
      actor: staff,
      clientAddress: null,
    });
    clearInterval(timer);
    expect(turns).toBeGreaterThanOrEqual(20);
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `10,000-row import (${(bytes.byteLength / 1024 / 1024).toFixed(2)} MB) on ${use().dialect}: ${seconds.toFixed(2)} s`,
    );
    expect(result).toMatchObject({ imported: 10_000, merged: 0, failed: 0 });
    expect(await countMatchingLeads(db(), { ownerId: staff.id })).toBe(10_000);
    // The target is 10 s (docs/performance.md records the figures); on this shared 2-core machine a
    // load average of 30 has stretched it to 13 s, so the bound here only catches a regression of
    // another order (one statement per lead took 35 s).
    expect(seconds).toBeLessThan(30);
    const undo = await intake.undo(result.importId, { actor: staff, clientAddress: null });
    expect(undo.removed).toBe(10_000);
    expect(await countMatchingLeads(db(), {})).toBe(0);
  }, 60_000);
});
