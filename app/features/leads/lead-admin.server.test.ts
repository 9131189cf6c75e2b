import { beforeEach, describe, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { deleteLead, isLeadStatus, leadHistory, listLeads, updateLeadStatus } from "./lead-admin.server.ts";
import { findLead, type LeadStatus } from "./lead-repository.server.ts";

const BASE = Date.parse("2026-11-01T09:00:00.000Z");
const HOUR = 3_600_000;

type Seed = {
  fullName: string;
  email?: string;
  company?: string;
  hoursAgo?: number;
  status?: LeadStatus;
  spam?: boolean;
  phone?: string;
  message?: string | null;
};

describe("lead statuses", () => {
  it("are the spec's five and nothing else", () => {
    for (const status of ["new", "contacted", "qualified", "unqualified", "customer"]) {
      expect(isLeadStatus(status)).toBe(true);
    }
    for (const value of ["New", "archived", "", null, undefined, 1, ["new"]])
      expect(isLeadStatus(value)).toBe(false);
  });
});

describeEachDatabase("lead admin queries", (use) => {
  const db = () => use().db;

  async function addLead({
    fullName,
    email = `${fullName.toLowerCase().replace(/\W+/g, ".")}@example.com`,
    company = "Acme Construction Ltd",
    hoursAgo = 0,
    status = "new",
    spam = false,
    phone = "+44 20 7946 0000",
    message = null,
  }: Seed): Promise<number> {
    const at = new Date(BASE - hoursAgo * HOUR).toISOString();
    const row = await db()
      .insertInto("leads")
      .values(
        leadRow({
          fullName,
          email,
          company,
          phone,
          message,
          isSpam: spam ? 1 : 0,
          spamReason: spam ? "honeypot" : null,
          status,
          createdAt: at,
          updatedAt: at,
        }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  const names = async (query: Parameters<typeof listLeads>[1]) =>
    (await listLeads(db(), query)).leads.map((lead) => lead.fullName);
  const all = { page: 1, pageSize: 100 };

  beforeEach(async () => {
    await db().deleteFrom("leadStatusChanges").execute();
    await db().deleteFrom("leads").execute();
  });

  it("lists genuine leads newest first, ties broken by the later id", async () => {
    await addLead({ fullName: "Oldest", hoursAgo: 30 });
    await addLead({ fullName: "Newest", hoursAgo: 1 });
    await addLead({ fullName: "Same time A", hoursAgo: 5 });
    await addLead({ fullName: "Same time B", hoursAgo: 5 });
    await addLead({ fullName: "Middle", hoursAgo: 10 });
    await expect(names(all)).resolves.toEqual(["Newest", "Same time B", "Same time A", "Middle", "Oldest"]);
    const { leads, total } = await listLeads(db(), all);
    expect(total).toBe(5);
    // The API shape: booleans and the spec's fields, no raw 0/1 columns.
    expect(leads[0]).toMatchObject({
      fullName: "Newest",
      status: "new",
      isSpam: false,
      investorType: { angel: false, vc: false, introducer: false, other: false },
    });
    expect(leads[0]).not.toHaveProperty("investorAngel");
  });

  it("filters by status", async () => {
    await addLead({ fullName: "A new one", status: "new" });
    await addLead({ fullName: "Contacted one", status: "contacted", hoursAgo: 1 });
    await addLead({ fullName: "Customer one", status: "customer", hoursAgo: 2 });
    await addLead({ fullName: "Contacted two", status: "contacted", hoursAgo: 3 });
    await expect(names({ ...all, status: "contacted" })).resolves.toEqual(["Contacted one", "Contacted two"]);
    await expect(names({ ...all, status: "qualified" })).resolves.toEqual([]);
    await expect(listLeads(db(), { ...all, status: "customer" })).resolves.toMatchObject({ total: 1 });
  });

  it("searches name, email and company, case-insensitively, anywhere in the text", async () => {
    await addLead({
      fullName: "Amara Okafor",
      email: "amara@okafor-build.co.uk",
      company: "Okafor Build Ltd",
    });
    await addLead({
      fullName: "Jonas Berg",
      email: "jonas@nordic.se",
      company: "Nordic Angels",
      hoursAgo: 1,
    });
    await addLead({
      fullName: "Priya Shah",
      email: "PRIYA@SHAH-SURVEYS.COM",
      company: "Shah Surveys",
      hoursAgo: 2,
    });
    await addLead({
      fullName: "Ignored Fields",
      email: "x@example.com",
      company: "Elsewhere",
      phone: "+44 okafor",
      message: "we love Okafor",
      hoursAgo: 3,
    });
    await expect(names({ ...all, q: "okafor" })).resolves.toEqual(["Amara Okafor"]);
    await expect(names({ ...all, q: "OKAFOR BUILD" })).resolves.toEqual(["Amara Okafor"]);
    await expect(names({ ...all, q: "nordic.se" })).resolves.toEqual(["Jonas Berg"]);
    await expect(names({ ...all, q: "angels" })).resolves.toEqual(["Jonas Berg"]);
    await expect(names({ ...all, q: "shah-surveys" })).resolves.toEqual(["Priya Shah"]);
    await expect(names({ ...all, q: "  berg  " })).resolves.toEqual(["Jonas Berg"]);
    await expect(names({ ...all, q: "zzz" })).resolves.toEqual([]);
    // Blank is no filter.
    await expect(names({ ...all, q: "   " })).resolves.toHaveLength(4);
    await expect(names({ ...all, q: "nordic", status: "new" })).resolves.toEqual(["Jonas Berg"]);
    await expect(names({ ...all, q: "nordic", status: "contacted" })).resolves.toEqual([]);
  });

  it("ignores the case of accented letters inside words", async () => {
    await addLead({ fullName: "Zoë Müller", company: "Bâtiments Dubois" });
    await expect(names({ ...all, q: "ZOË MÜLLER" })).resolves.toEqual(["Zoë Müller"]);
    await expect(names({ ...all, q: "BÂTIMENTS" })).resolves.toEqual(["Zoë Müller"]);
  });

  it("ignores the case of an accented capital letter", async () => {
    await addLead({ fullName: "Øyvind Ørsted", company: "Ærø Bygg AS" });
    await addLead({ fullName: "Élodie Dubois", company: "Dubois SA", hoursAgo: 1 });
    await expect(names({ ...all, q: "øyvind" })).resolves.toEqual(["Øyvind Ørsted"]);
    await expect(names({ ...all, q: "ærø" })).resolves.toEqual(["Øyvind Ørsted"]);
    await expect(names({ ...all, q: "élodie" })).resolves.toEqual(["Élodie Dubois"]);
  });

  it("takes %, _ and \\ in a search literally", async () => {
    await addLead({ fullName: "Percent Person", company: "100% Build" });
    await addLead({ fullName: "Underscore Person", email: "first_last@example.com", hoursAgo: 1 });
    await addLead({ fullName: "Backslash Person", company: "Back\\slash Ltd", hoursAgo: 2 });
    await addLead({
      fullName: "Plain Person",
      email: "firstXlast@example.com",
      company: "1000 Build",
      hoursAgo: 3,
    });
    await expect(names({ ...all, q: "%" })).resolves.toEqual(["Percent Person"]);
    await expect(names({ ...all, q: "0% b" })).resolves.toEqual(["Percent Person"]);
    await expect(names({ ...all, q: "first_last" })).resolves.toEqual(["Underscore Person"]);
    await expect(names({ ...all, q: "_" })).resolves.toEqual(["Underscore Person"]);
    await expect(names({ ...all, q: "\\" })).resolves.toEqual(["Backslash Person"]);
    await expect(names({ ...all, q: "k\\s" })).resolves.toEqual(["Backslash Person"]);
    await expect(names({ ...all, q: "'; drop table leads; --" })).resolves.toEqual([]);
    await expect(listLeads(db(), all)).resolves.toMatchObject({ total: 4 });
  });

  it("leaves spam out by default, and shows it on request (only, or included)", async () => {
    await addLead({ fullName: "Genuine" });
    await addLead({ fullName: "Spammer", spam: true, hoursAgo: 1 });
    await expect(names(all)).resolves.toEqual(["Genuine"]);
    await expect(names({ ...all, spam: "exclude" })).resolves.toEqual(["Genuine"]);
    await expect(names({ ...all, spam: "only" })).resolves.toEqual(["Spammer"]);
    await expect(names({ ...all, spam: "include" })).resolves.toEqual(["Genuine", "Spammer"]);
    await expect(listLeads(db(), { ...all, spam: "include" })).resolves.toMatchObject({ total: 2 });
    await expect(listLeads(db(), all)).resolves.toMatchObject({ total: 1 });
  });

  it("pages through the results with the total of all matching leads", async () => {
    for (let n = 1; n <= 7; n++) await addLead({ fullName: `Lead ${n}`, hoursAgo: n });
    await addLead({ fullName: "Other status", status: "customer", hoursAgo: 0 });
    const page = (number: number) => listLeads(db(), { status: "new", page: number, pageSize: 3 });
    const [first, second, third, beyond] = await Promise.all([page(1), page(2), page(3), page(4)]);
    expect(first.leads.map((lead) => lead.fullName)).toEqual(["Lead 1", "Lead 2", "Lead 3"]);
    expect(second.leads.map((lead) => lead.fullName)).toEqual(["Lead 4", "Lead 5", "Lead 6"]);
    expect(third.leads.map((lead) => lead.fullName)).toEqual(["Lead 7"]);
    expect(beyond.leads).toEqual([]);
    for (const result of [first, second, third, beyond]) expect(result.total).toBe(7);
  });

  it("changes a status and records from, to, who and when; the same status again records nothing", async () => {
    const admin = await createUser(db(), {
      username: `admin-${Math.random().toString(36).slice(2, 8)}`,
      password: "a long enough passphrase",
      isAdmin: true,
    });
    const id = await addLead({ fullName: "Worked Lead" });
    const at = (minutes: number) => new Date(BASE + minutes * 60_000);

    const contacted = await updateLeadStatus(db(), id, "contacted", admin, at(1));
    expect(contacted).toMatchObject({ id, status: "contacted", updatedAt: at(1).toISOString() });
    expect(await updateLeadStatus(db(), id, "contacted", admin, at(2))).toMatchObject({
      status: "contacted",
      updatedAt: at(1).toISOString(),
    });
    await updateLeadStatus(db(), id, "qualified", admin, at(3));

    expect(await leadHistory(db(), id)).toEqual([
      {
        id: expect.any(Number),
        fromStatus: "new",
        toStatus: "contacted",
        changedBy: admin.username,
        changedAt: at(1).toISOString(),
      },
      {
        id: expect.any(Number),
        fromStatus: "contacted",
        toStatus: "qualified",
        changedBy: admin.username,
        changedAt: at(3).toISOString(),
      },
    ]);
    const rows = await db().selectFrom("leadStatusChanges").select("changedByUserId").execute();
    expect(rows.map((row) => Number(row.changedByUserId))).toEqual([admin.id, admin.id]);
    expect((await findLead(db(), id))?.status).toBe("qualified");
  });

  it("keeps the history readable after the account that made a change is removed", async () => {
    const admin = await createUser(db(), {
      username: "leaver",
      password: "a long enough passphrase",
      isAdmin: true,
    });
    const id = await addLead({ fullName: "Kept History" });
    await updateLeadStatus(db(), id, "customer", admin, new Date(BASE));
    await db().deleteFrom("users").where("id", "=", admin.id).execute();
    expect(await leadHistory(db(), id)).toMatchObject([
      { fromStatus: "new", toStatus: "customer", changedBy: "leaver" },
    ]);
  });

  it("answers undefined for an unknown lead and records nothing", async () => {
    await expect(
      updateLeadStatus(db(), 999_999, "contacted", { id: 1, username: "x" }),
    ).resolves.toBeUndefined();
    expect(await db().selectFrom("leadStatusChanges").select("id").execute()).toEqual([]);
  });

  it("erases a lead with its history, and says whether there was one", async () => {
    const id = await addLead({ fullName: "To Erase" });
    const kept = await addLead({ fullName: "To Keep" });
    const actor = { id: 0, username: "someone" };
    await db()
      .insertInto("leadStatusChanges")
      .values([
        {
          leadId: id,
          fromStatus: "new",
          toStatus: "contacted",
          changedByUserId: null,
          changedByUsername: actor.username,
          changedAt: new Date(BASE).toISOString(),
        },
        {
          leadId: kept,
          fromStatus: "new",
          toStatus: "contacted",
          changedByUserId: null,
          changedByUsername: actor.username,
          changedAt: new Date(BASE).toISOString(),
        },
      ])
      .execute();
    await expect(deleteLead(db(), id)).resolves.toBe(true);
    await expect(findLead(db(), id)).resolves.toBeUndefined();
    await expect(leadHistory(db(), id)).resolves.toEqual([]);
    await expect(leadHistory(db(), kept)).resolves.toHaveLength(1);
    await expect(deleteLead(db(), id)).resolves.toBe(false);
    await expect(deleteLead(db(), 999_999)).resolves.toBe(false);
  });
});
