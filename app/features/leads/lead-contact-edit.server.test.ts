import { beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { insertLead, type leadRow } from "../../../tests/support/lead-rows.ts";
import {
  ContactEditRefused,
  createLeadAdmin,
  findLeadListItem,
  UnknownOwnerError,
} from "./lead-admin.server.ts";
import { leadDetail } from "./lead-admin-http.server.ts";
import { ERASED_EMAIL_MESSAGE, parseContactEdit } from "./lead-contact-schema.ts";
import { suppressionKey } from "./lead-erasure.server.ts";
import type { LeadChange } from "./lead-service.server.ts";

// Issue 35: staff correct a lead's fields on its page or through the API. Each change is on the
// timeline as who changed what from what, an e-mail change moves the lead to its new person, and
// nothing is written (or recorded) when nothing changed.

const SECRET = "contact-edit-secret-contact-edit-01";
const NOW = new Date("2026-11-24T12:00:00.000Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

describeEachDatabase("lead contact edit", (use) => {
  const db = () => use().db;
  let alice: { id: number; username: string };
  let bob: { id: number; username: string };
  const changes: LeadChange["type"][] = [];
  const admin = () =>
    createLeadAdmin({
      db: db(),
      notify: false,
      secret: SECRET,
      onLeadChange: async (_trx, change) => {
        changes.push(change.type);
      },
    });

  const addLead = (overrides: Parameters<typeof leadRow>[0] = {}) =>
    insertLead(db(), { createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(), ...overrides });

  beforeEach(async () => {
    for (const table of [
      "leadEvents",
      "leadStatusChanges",
      "leadNotes",
      "leads",
      "erasureSuppressions",
    ] as const)
      await db().deleteFrom(table).execute();
    await db().deleteFrom("users").execute();
    alice = await createUser(db(), { username: "alice", password: "Alice-Password-01", isAdmin: true });
    bob = await createUser(db(), { username: "bob", password: "Bob-Password-0001", isAdmin: true });
    changes.length = 0;
  });

  it("validates an edit by the lead's own form's rules and messages", () => {
    expect(parseContactEdit("demo", { phone: "call me" })).toEqual({
      success: false,
      errors: { phone: "Please enter a valid phone number" },
    });
    expect(parseContactEdit("demo", { email: "nobody", fullName: "" })).toEqual({
      success: false,
      errors: { email: "Please enter a valid email address", fullName: "Please enter your full name" },
    });
    // The investor form wants two letters of a name; the demo form one.
    expect(parseContactEdit("demo", { fullName: "A" }).success).toBe(true);
    expect(parseContactEdit("investor", { fullName: "A" })).toMatchObject({
      errors: { fullName: "Full name must be at least 2 characters" },
    });
    expect(parseContactEdit("demo", { company: "x".repeat(161) })).toMatchObject({
      errors: { company: "Please use at most 160 characters" },
    });
    // Only what was sent; a message sent empty clears it; names are cleaned as the form cleans them.
    expect(parseContactEdit("demo", { fullName: "  Ada\tLovelace ", message: "", status: "new" })).toEqual({
      success: true,
      data: { fullName: "Ada Lovelace", message: null },
    });
  });

  it("records who changed what from what, once per edit, and tells the webhooks", async () => {
    const id = await addLead({ phone: "+44 20 7946 0958", company: "Acme" });
    const lead = await admin().editContact(
      id,
      { phone: "+44 20 7946 0000", company: "Acme Ltd", fullName: "Test Lead" },
      alice,
      at(5),
    );
    expect(lead).toMatchObject({
      phone: "+44 20 7946 0000",
      company: "Acme Ltd",
      updatedAt: at(5).toISOString(),
    });
    const detail = await leadDetail(db(), id);
    expect(detail?.timeline[0]).toEqual({
      kind: "contact_changed",
      id: expect.any(String),
      at: at(5).toISOString(),
      actor: "alice",
      changes: [
        { field: "company", from: "Acme", to: "Acme Ltd" },
        { field: "phone", from: "+44 20 7946 0958", to: "+44 20 7946 0000" },
      ],
    });
    expect(changes).toEqual(["lead.updated"]);
    // The list sorts by the new company: its sort key follows.
    const row = await db()
      .selectFrom("leads")
      .select("companyKey")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.companyKey).toBe("acme ltd");
  });

  it("records nothing and writes nothing when nothing changed", async () => {
    const id = await addLead();
    const lead = await admin().editContact(
      id,
      { fullName: "Test Lead", email: "test.lead@example.com", message: null },
      alice,
      at(5),
    );
    expect(lead?.updatedAt).toBe(NOW.toISOString());
    const events = await db().selectFrom("leadEvents").selectAll().where("leadId", "=", id).execute();
    expect(events).toEqual([]);
    expect(changes).toEqual([]);
    await expect(admin().editContact(999_999, { phone: "+44 1" }, alice)).resolves.toBeUndefined();
  });

  it("moves the lead to the person of its new address, its timeline with it", async () => {
    const first = await addLead({ email: "ada@old.example", createdAt: at(-60).toISOString() });
    const edited = await addLead({ email: "ADA@old.example" });
    const other = await addLead({ email: "ada@new.example", createdAt: at(-30).toISOString() });
    await admin().setStatus(edited, "contacted", bob, at(1));
    expect((await leadDetail(db(), first))?.otherSubmissions.map((lead) => lead.id)).toEqual([edited]);

    await admin().editContact(edited, { email: "Ada@New.example" }, alice, at(2));

    const moved = await leadDetail(db(), edited);
    expect(moved?.otherSubmissions.map((lead) => lead.id)).toEqual([other]);
    // "Returning" follows too: the person's later submission now has an earlier one.
    expect((await findLeadListItem(db(), other))?.returning).toBe(true);
    expect(moved?.timeline.map((entry) => entry.kind)).toEqual(["contact_changed", "status", "submitted"]);
    expect((await leadDetail(db(), first))?.otherSubmissions).toEqual([]);
    expect((await leadDetail(db(), other))?.otherSubmissions.map((lead) => lead.id)).toEqual([edited]);
    expect((await findLeadListItem(db(), first))?.returning).toBe(false);
    // The address it carried is kept by its key, so its holder's erasure and export still find it.
    expect(
      await db().selectFrom("leadFormerEmails").select(["leadId", "emailKey", "replacedAt"]).execute(),
    ).toEqual([{ leadId: edited, emailKey: "ada@old.example", replacedAt: at(2).toISOString() }]);
  });

  it("refuses an address erased on request, unless it is the lead's own in another case", async () => {
    await db()
      .insertInto("erasureSuppressions")
      .values({
        emailHmac: suppressionKey(SECRET, "gone@example.com"),
        erasedAt: NOW.toISOString(),
        reason: "Erasure request",
      })
      .execute();
    const id = await addLead();
    const refused = admin().editContact(id, { email: "Gone@Example.com" }, alice, at(1));
    await expect(refused).rejects.toBeInstanceOf(ContactEditRefused);
    await expect(refused).rejects.toMatchObject({ field: "email", message: ERASED_EMAIL_MESSAGE });
    expect((await leadDetail(db(), id))?.email).toBe("test.lead@example.com");
    expect(await db().selectFrom("leadEvents").selectAll().execute()).toEqual([]);
  });

  it("edits an investor's types and details as the investor form keeps them", async () => {
    const id = await addLead({
      requestType: "investor",
      investorAngel: 1,
      investorOther: 1,
      otherDetails: "Family office",
      message: "Investor interest from landing page",
    });
    await admin().editContact(
      id,
      { investorType: { angel: false, vc: true, introducer: false, other: false } },
      alice,
      at(1),
    );
    const detail = await leadDetail(db(), id);
    expect(detail?.investorType).toEqual({ angel: false, vc: true, introducer: false, other: false });
    expect(detail?.otherDetails).toBeNull();
    expect(detail?.timeline[0]).toMatchObject({
      changes: [
        { field: "investorType", from: "Angel, Other", to: "VC" },
        { field: "otherDetails", from: "Family office", to: null },
      ],
    });
  });

  it("makes a PATCH's changes all or nothing: a refused owner saves none, an accepted one saves each as before", async () => {
    const id = await addLead({ phone: "+44 20 7946 0958", status: "new" });
    const disabled = await createUser(db(), {
      username: "dora",
      password: "Dora-Password-001",
      isAdmin: true,
    });
    await db().updateTable("users").set({ disabled: 1 }).where("id", "=", disabled.id).execute();
    const queued: number[] = [];
    const leadAdmin = createLeadAdmin({
      db: db(),
      notify: false,
      secret: SECRET,
      onLeadChange: async (trx, change) => {
        // As the composition root does: what a change announces is written in its transaction.
        changes.push(change.type);
        await trx
          .insertInto("leadEvents")
          .values({
            leadId: change.leadId,
            type: "notification_sent",
            actorUserId: null,
            actorName: null,
            detail: JSON.stringify({ announced: change.type }),
            createdAt: change.occurredAt.toISOString(),
          })
          .execute();
      },
      onQueued: () => queued.push(1),
    });
    const before = await findLeadListItem(db(), id);
    for (const ownerId of [disabled.id, 999_999]) {
      await expect(
        leadAdmin.update(
          id,
          { contact: { phone: "+44 20 7946 0000" }, status: "contacted", ownerId, spam: true },
          alice,
          at(5),
        ),
      ).rejects.toBeInstanceOf(UnknownOwnerError);
    }
    // Nothing of it: the phone, the status, their timeline entries and announcements all undone.
    expect(await findLeadListItem(db(), id)).toEqual(before);
    expect(await db().selectFrom("leadEvents").select("id").where("leadId", "=", id).execute()).toEqual([]);
    expect(
      await db().selectFrom("leadStatusChanges").select("id").where("leadId", "=", id).execute(),
    ).toEqual([]);
    expect(queued).toEqual([]);

    changes.length = 0;
    const lead = await leadAdmin.update(
      id,
      { contact: { phone: "+44 20 7946 0000" }, status: "contacted", ownerId: bob.id },
      alice,
      at(6),
    );
    expect(lead).toMatchObject({ phone: "+44 20 7946 0000", status: "contacted", ownerId: bob.id });
    // Each part recorded and announced as its own call records and announces it; woken once.
    expect(changes).toEqual(["lead.updated", "lead.updated", "lead.updated"]);
    expect(queued).toEqual([1]);
    const kinds = ((await leadDetail(db(), id))?.timeline ?? []).map((entry) => entry.kind);
    expect(kinds).toEqual(expect.arrayContaining(["contact_changed", "status", "owner_changed"]));
    await expect(leadAdmin.update(999_999, { status: "contacted" }, alice)).resolves.toBeUndefined();
  });

  it("keeps each editor's change when two edit at once, each recording what it replaced", async () => {
    const id = await addLead({ phone: "+44 20 7946 0001" });
    await Promise.all([
      admin().editContact(id, { phone: "+44 20 7946 0002" }, alice, at(1)),
      admin().editContact(id, { company: "Both Kept Ltd" }, bob, at(1)),
    ]);
    const detail = await leadDetail(db(), id);
    expect(detail).toMatchObject({ phone: "+44 20 7946 0002", company: "Both Kept Ltd" });
    const recorded = detail?.timeline.filter((entry) => entry.kind === "contact_changed") ?? [];
    expect(recorded).toHaveLength(2);
    // Two editors of one field at once: the second records the first one's value as what it replaced.
    await Promise.all([
      admin().editContact(id, { phone: "+44 20 7946 0003" }, alice, at(2)),
      admin().editContact(id, { phone: "+44 20 7946 0004" }, bob, at(2)),
    ]);
    const phones = ((await leadDetail(db(), id))?.timeline ?? [])
      .filter((entry) => entry.kind === "contact_changed")
      .flatMap((entry) => ("changes" in entry ? entry.changes : []))
      .filter((change) => change.field === "phone");
    const froms = phones.slice(0, 2).map((change) => change.from);
    expect(froms).toContain("+44 20 7946 0002");
    expect(new Set(froms).size).toBe(2);
  });
});
