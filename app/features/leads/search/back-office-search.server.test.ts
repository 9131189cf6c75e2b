import { beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../../../tests/support/databases.ts";
import { leadRow } from "../../../../tests/support/lead-rows.ts";
import { GROUP_LIMIT, parseSearchQuery, searchBackOffice } from "./back-office-search.server.ts";
import { createSearchRate } from "./search-rate.ts";

// The shell's search on both databases: what each group finds, in which order, what it never shows
// (held spam by text, anonymised leads), and how many it returns at most.

describeEachDatabase("the back office's search", (use) => {
  const db = () => use().db;
  const ids: Record<string, number> = {};

  async function insert(name: string, overrides: Parameters<typeof leadRow>[0]) {
    const row = await db()
      .insertInto("leads")
      .values(leadRow({ fullName: name, ...overrides }))
      .returning("id")
      .executeTakeFirstOrThrow();
    ids[name] = Number(row.id);
  }

  beforeEach(async () => {
    await db().deleteFrom("leads").execute();
    await insert("Amara Okafor", {
      email: "amara@okafor-build.example",
      company: "Okafor Build Ltd",
      createdAt: "2026-11-01T09:00:00.000Z",
    });
    await insert("Amara Okafor again", {
      email: "AMARA@okafor-build.example",
      company: "Okafor Build Ltd",
      createdAt: "2026-11-02T09:00:00.000Z",
    });
    await insert("Tomás Ó Briain", {
      email: "tomas@obriain.example",
      company: "Ó Briain Civil",
      createdAt: "2026-11-03T09:00:00.000Z",
    });
    await insert("Okay Spam", {
      email: "spam@loans.example",
      company: "Okafor Loans",
      isSpam: 1,
      createdAt: "2026-11-04T09:00:00.000Z",
    });
    await insert("", {
      email: "",
      company: "",
      anonymisedAt: "2026-11-05T00:00:00.000Z",
      createdAt: "2026-11-05T09:00:00.000Z",
    });
  });

  it("finds leads newest first, one person per email, and companies by their number of leads", async () => {
    const results = await searchBackOffice(db(), "okafor");
    expect(results.leads.map((lead) => lead.fullName)).toEqual(["Amara Okafor again", "Amara Okafor"]);
    expect(results.leads[0]).toMatchObject({
      id: ids["Amara Okafor again"],
      href: `/admin/leads/${ids["Amara Okafor again"]}`,
      status: "new",
    });
    expect(results.people).toEqual([
      {
        email: expect.stringMatching(/^amara@okafor-build\.example$/i),
        fullName: expect.stringMatching(/^Amara Okafor/),
        leads: 2,
        href: expect.stringMatching(/^\/admin\/people\?email=amara%40okafor-build\.example$/i),
      },
    ]);
    // Held spam ("Okafor Loans") is reviewed in its own view, not found by text.
    expect(results.companies).toEqual([
      { company: "Okafor Build Ltd", leads: 2, href: "/admin/dashboard?q=Okafor+Build+Ltd" },
    ]);
  });

  it("finds a lead by its number (held spam too), accented names, and nothing for one letter", async () => {
    const spam = ids["Okay Spam"];
    const byId = await searchBackOffice(db(), `#${spam}`);
    expect(byId.leads.map((lead) => lead.id)).toEqual([spam]);
    expect((await searchBackOffice(db(), "Ó BRIAIN")).leads.map((lead) => lead.fullName)).toEqual([
      "Tomás Ó Briain",
    ]);
    expect(await searchBackOffice(db(), "o")).toEqual({ query: "o", leads: [], people: [], companies: [] });
    // An anonymised lead is found neither by its number nor by text.
    const gone = ids[""];
    expect((await searchBackOffice(db(), String(gone))).leads).toEqual([]);
  });

  it("takes the user's % and _ literally and returns at most a handful per group", async () => {
    expect((await searchBackOffice(db(), "%%")).leads).toEqual([]);
    for (let index = 0; index < GROUP_LIMIT + 3; index++)
      await insert(`Bulk Person ${index}`, {
        email: `bulk${index}@example.com`,
        company: `Bulk Co ${index}`,
      });
    const results = await searchBackOffice(db(), "bulk");
    expect(results.leads).toHaveLength(GROUP_LIMIT);
    expect(results.people).toHaveLength(GROUP_LIMIT);
    expect(results.companies).toHaveLength(GROUP_LIMIT);
  });
});

it("parses the query: trimmed, at most 100 characters, one line", () => {
  expect(parseSearchQuery("  okafor ")).toEqual({ ok: true, query: "okafor" });
  expect(parseSearchQuery(null)).toEqual({ ok: true, query: "" });
  expect(parseSearchQuery("x".repeat(101)).ok).toBe(false);
  expect(parseSearchQuery("a\u0000b").ok).toBe(false);
});

it("limits each person's searches per minute, then lets them go on", () => {
  const rate = createSearchRate(3, 60_000);
  expect([rate.hit(1, 0), rate.hit(1, 1), rate.hit(1, 2)]).toEqual([0, 0, 0]);
  expect(rate.hit(1, 30_000)).toBe(30);
  expect(rate.hit(2, 30_000)).toBe(0);
  expect(rate.hit(1, 60_000)).toBe(0);
});
