import { beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { createLeadAdmin } from "#app/features/leads/lead-admin.server.ts";
import { leadDetail } from "#app/features/leads/lead-admin-http.server.ts";
import { ERASED_VALUE, WITHHELD_VALUE } from "#app/features/leads/lead-contact-schema.ts";
import { erasedOn } from "#app/features/leads/lead-erasure.server.ts";
import { anonymiseLeads, deleteExpiredSpam } from "#app/features/leads/lead-retention.server.ts";
import { findPerson } from "#app/features/people/people-http.server.ts";
import { listAccessLog } from "#app/lib/access-log.server.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { insertLead, type leadRow } from "../tests/support/lead-rows.ts";
import { createPeopleLeads } from "./people-leads.server.ts";

// ADR 044: a corrected e-mail moves the lead to the new address's person, but its timeline still
// names the old address. Its holder's subject access finds the fact (the field, when, the entries
// naming it, the other address withheld) and their erasure takes the address out of those entries,
// leaving the lead to its person. Retention and the other erasures take a lead's record of its old
// addresses with it. Through the services, on both databases.

const SECRET = "former-emails-secret-former-emails-01";
const NOW = new Date("2026-11-24T12:00:00.000Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

describeEachDatabase("addresses a lead carried before", (use) => {
  const db = () => use().db;
  let staff: { id: number; username: string };
  const admin = () => createLeadAdmin({ db: db(), notify: false, secret: SECRET });
  const people = () => createPeopleLeads(db(), SECRET, admin());
  const erase = (email: string) =>
    people().erasePerson({ email, reason: "Asked by email", actor: staff, clientAddress: null });
  const formerRows = () =>
    db().selectFrom("leadFormerEmails").select(["leadId", "emailKey", "replacedAt"]).orderBy("id").execute();

  const addLead = (overrides: Parameters<typeof leadRow>[0] = {}) =>
    insertLead(db(), { createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(), ...overrides });

  beforeEach(async () => {
    for (const table of [
      "leadFormerEmails",
      "leadImportChanges",
      "leadEvents",
      "leadStatusChanges",
      "leadNotes",
      "leads",
      "accessLog",
      "erasureSuppressions",
    ] as const)
      await db().deleteFrom(table).execute();
    await db().deleteFrom("users").execute();
    staff = await createUser(db(), {
      username: "privacy-officer",
      password: "Privacy-Password-01",
      isAdmin: true,
    });
  });

  it("keeps a replaced address by its key with the edit, and none for a change of letter case", async () => {
    const id = await addLead({ email: "Ada@Old.example" });
    await admin().editContact(id, { email: "ada@OLD.example " }, staff, at(1));
    expect(await formerRows()).toEqual([]);
    await admin().editContact(id, { email: "ben@new.example", fullName: "Ben Cole" }, staff, at(2));
    expect(await formerRows()).toEqual([
      { leadId: id, emailKey: "ada@old.example", replacedAt: at(2).toISOString() },
    ]);
    // Written in the edit's transaction: an edit failing after it (here its webhooks) keeps nothing.
    const failing = createLeadAdmin({
      db: db(),
      notify: false,
      secret: SECRET,
      onLeadChange: async () => {
        throw new Error("webhooks down");
      },
    });
    await expect(failing.editContact(id, { email: "cy@new.example" }, staff, at(3))).rejects.toThrow(
      "webhooks down",
    );
    expect((await formerRows()).map((row) => row.emailKey)).toEqual(["ada@old.example"]);
    expect((await leadDetail(db(), id))?.email).toBe("ben@new.example");
  });

  it("exports the fact of an old address and the entries naming it, not the lead's person now", async () => {
    const id = await addLead({
      email: "ada@old.example",
      fullName: "Ada Lovelace",
      phone: "+44 20 7946 0001",
    });
    await admin().setStatus(id, "contacted", staff, at(1));
    await admin().editContact(
      id,
      { email: "ben@new.example", fullName: "Ben Cole", phone: "+44 20 7946 0002" },
      staff,
      at(2),
    );
    await admin().editContact(id, { company: "Cole Builders" }, staff, at(3));

    const person = await findPerson(db(), people(), " ADA@old.example");
    expect(person).toEqual({
      email: " ADA@old.example",
      leads: [],
      notes: [],
      timeline: [],
      messages: [],
      formerly: [
        {
          leadId: id,
          field: "email",
          replacedAt: [at(2).toISOString()],
          timeline: [
            {
              kind: "contact_changed",
              id: expect.stringMatching(/^event-\d+$/),
              at: at(2).toISOString(),
              actor: "privacy-officer",
              changes: [{ field: "email", from: "ada@old.example", to: WITHHELD_VALUE }],
            },
          ],
        },
      ],
      erasedBefore: null,
    });
    // Nothing of the lead's person now: their address, name, phone, company.
    for (const theirs of ["ben@new.example", "Ben Cole", "7946 0002", "Cole Builders", "Ada Lovelace"])
      expect(JSON.stringify(person)).not.toContain(theirs);
    // The new address's person has the lead, as before.
    const ben = await findPerson(db(), people(), "ben@new.example");
    expect(ben?.leads.map((lead) => lead.id)).toEqual([id]);
    expect(ben?.formerly).toEqual([]);
  });

  it("erases the old address from the lead's timeline, which stays with its new person", async () => {
    const moved = await addLead({ email: "ada@old.example" });
    const still = await addLead({ email: "ADA@old.example", fullName: "Ada Lovelace" });
    await admin().editContact(moved, { email: "ben@new.example" }, staff, at(1));

    expect(await erase("Ada@Old.example")).toEqual({ leads: 1, formerly: 1 });

    // Her own lead went; the moved one stays, Ben's, with the change and without her address.
    expect((await db().selectFrom("leads").select("id").execute()).map((row) => Number(row.id))).toEqual([
      moved,
    ]);
    const detail = await leadDetail(db(), moved);
    expect(detail?.email).toBe("ben@new.example");
    expect(detail?.timeline[0]).toMatchObject({
      kind: "contact_changed",
      actor: "privacy-officer",
      changes: [{ field: "email", from: ERASED_VALUE, to: "ben@new.example" }],
    });
    expect(await formerRows()).toEqual([]);
    const stored = JSON.stringify(await db().selectFrom("leadEvents").selectAll().execute());
    expect(stored.toLowerCase()).not.toContain("ada@old.example");
    expect(await db().selectFrom("leads").select("id").where("id", "=", still).execute()).toEqual([]);
    // The suppression applies to her address as for any erasure; the log counts both kinds.
    expect(await erasedOn(db(), SECRET, "ada@old.example")).not.toBeNull();
    const log = await listAccessLog(db());
    expect(log.entries[0]).toMatchObject({ action: "person_erased", detail: { leads: 1, formerly: 1 } });
    // Asked again: only the record that she was erased.
    expect(await findPerson(db(), people(), "ada@old.example")).toMatchObject({
      leads: [],
      formerly: [],
      erasedBefore: expect.any(String),
    });
    // Ben's lead cannot be given her address back.
    await expect(
      admin().editContact(moved, { email: "ada@old.example" }, staff, at(5)),
    ).rejects.toMatchObject({
      field: "email",
    });
  });

  it("erases an address that only a corrected lead carried, and every entry naming it", async () => {
    // Set by one correction and replaced by the next: named as the new value, then as the old one.
    const id = await addLead({ email: "xavier@first.example" });
    await admin().editContact(id, { email: "ada@old.example" }, staff, at(1));
    await admin().editContact(id, { email: "ben@new.example", phone: "+44 20 7946 0003" }, staff, at(2));

    const person = await findPerson(db(), people(), "ada@old.example");
    expect(person?.leads).toEqual([]);
    expect(person?.formerly).toHaveLength(1);
    expect(person?.formerly[0]?.timeline.map((entry) => entry.changes)).toEqual([
      [{ field: "email", from: "ada@old.example", to: WITHHELD_VALUE }],
      [{ field: "email", from: WITHHELD_VALUE, to: "ada@old.example" }],
    ]);
    expect(JSON.stringify(person)).not.toContain("xavier@first.example");

    expect(await erase("ada@old.example")).toEqual({ leads: 0, formerly: 1 });
    const changes = (await leadDetail(db(), id))?.timeline.flatMap((entry) =>
      entry.kind === "contact_changed" ? entry.changes : [],
    );
    expect(changes).toEqual([
      { field: "email", from: ERASED_VALUE, to: "ben@new.example" },
      { field: "phone", from: "+44 20 7946 0000", to: "+44 20 7946 0003" },
      { field: "email", from: "xavier@first.example", to: ERASED_VALUE },
    ]);
    // Xavier's old address is still kept for his own requests.
    expect(await formerRows()).toMatchObject([{ leadId: id, emailKey: "xavier@first.example" }]);
  });

  it("treats a lead carrying the address again as the person's own", async () => {
    const id = await addLead({ email: "ada@old.example" });
    await admin().editContact(id, { email: "ben@new.example" }, staff, at(1));
    await admin().editContact(id, { email: "Ada@old.example" }, staff, at(2));
    const person = await findPerson(db(), people(), "ada@old.example");
    expect(person?.leads.map((lead) => lead.id)).toEqual([id]);
    expect(person?.formerly).toEqual([]);
    // Ben's export finds the lead he was on, not Ada's details.
    expect((await findPerson(db(), people(), "ben@new.example"))?.formerly).toMatchObject([
      { leadId: id, replacedAt: [at(2).toISOString()] },
    ]);

    expect(await erase("ada@old.example")).toEqual({ leads: 1, formerly: 0 });
    expect(await db().selectFrom("leads").select("id").execute()).toEqual([]);
    expect(await formerRows()).toEqual([]);
  });

  it("erases the address from an import's record of the lead's fields before a merge", async () => {
    const id = await addLead({ email: "ada@old.example" });
    await db()
      .insertInto("leadImportChanges")
      .values({
        importId: 1,
        leadId: id,
        kind: "merged",
        rowNumber: 2,
        previous: JSON.stringify({
          before: { fullName: "Test Lead", email: "ada@old.example", phone: "+44 20 7946 0000" },
          after: { email: "ADA@old.example", phone: "+44 20 7946 0009" },
        }),
      })
      .execute();
    await admin().editContact(id, { email: "ben@new.example" }, staff, at(1));
    await erase("ada@old.example");
    const row = await db().selectFrom("leadImportChanges").select("previous").executeTakeFirstOrThrow();
    expect(JSON.parse(row.previous ?? "")).toEqual({
      before: { fullName: "Test Lead", email: ERASED_VALUE, phone: "+44 20 7946 0000" },
      after: { email: ERASED_VALUE, phone: "+44 20 7946 0009" },
    });
  });

  it("goes with the lead: anonymised by retention, purged as spam, deleted by staff", async () => {
    const kept = await addLead({ email: "ada@old.example" });
    const anonymised = await addLead({ email: "bea@old.example" });
    const spam = await addLead({ email: "cy@old.example" });
    const deleted = await addLead({ email: "dee@old.example" });
    for (const [id, email] of [
      [kept, "ada@new.example"],
      [anonymised, "bea@new.example"],
      [spam, "cy@new.example"],
      [deleted, "dee@new.example"],
    ] as const)
      await admin().editContact(id, { email }, staff, at(1));
    await admin().setSpam(spam, true, staff, at(2));

    const later = new Date("2029-01-01T00:00:00.000Z");
    await db()
      .transaction()
      .execute((trx) => anonymiseLeads(trx, [anonymised], later, later));
    await deleteExpiredSpam({ db: db(), cutoff: later, now: later, limit: 10, assertHeld: async () => {} });
    await admin().remove(deleted, staff, null, at(3));

    expect((await formerRows()).map((row) => row.leadId)).toEqual([kept]);
    for (const email of ["bea@old.example", "cy@old.example", "dee@old.example"])
      expect(await findPerson(db(), people(), email)).toBeNull();
  });
});
