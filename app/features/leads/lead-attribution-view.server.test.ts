import type { Insertable } from "kysely";
import { beforeEach, expect, it } from "vitest";
import type { LeadAttributionsTable } from "#app/db/schema.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { createLeadAdmin, listLeads } from "./lead-admin.server.ts";
import { leadDetail, parseListQuery } from "./lead-admin-http.server.ts";
import { leadsCsvStream } from "./lead-csv.server.ts";

// What staff see of a lead's attribution (issue 12), on both databases: the detail's `attribution`,
// the list's channel and campaign filters, the CSV's columns, and its erasure with the lead. The
// rows are written as features/analytics leaves them once settled.

const NOW = "2026-11-25T09:01:12.000Z";

describeEachDatabase("lead attribution, as staff see it", (use) => {
  const db = () => use().db;
  const ids: Record<string, number> = {};

  async function addLead(name: string, attribution?: Omit<Insertable<LeadAttributionsTable>, "leadId">) {
    const row = await db()
      .insertInto("leads")
      .values(
        leadRow({
          fullName: name,
          email: `${name.toLowerCase()}@example.com`,
          createdAt: NOW,
          updatedAt: NOW,
        }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    if (attribution)
      await db()
        .insertInto("leadAttributions")
        .values({ leadId: id, ...attribution })
        .execute();
    ids[name] = id;
    return id;
  }

  beforeEach(async () => {
    await db().deleteFrom("leadAttributions").execute();
    await db().deleteFrom("leads").execute();
    await addLead("Email", {
      status: "linked",
      submittedAt: NOW,
      landingPage: "/",
      referrerHost: "mail.example.net",
      referrerPath: "/inbox",
      channel: "Email",
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "launch",
      utmTerm: null,
      utmContent: "=HYPERLINK()",
      landedAt: "2026-11-25T09:00:00.000Z",
      pagesBeforeSubmit: 3,
      secondsToSubmit: 72,
      resolvedAt: NOW,
    });
    await addLead("Search", {
      status: "linked",
      submittedAt: NOW,
      landingPage: "/features",
      referrerHost: "www.google.com",
      referrerPath: "/",
      channel: "Organic search",
      pagesBeforeSubmit: 1,
      secondsToSubmit: 5,
    });
    await addLead("Unlinked", { status: "unknown", submittedAt: NOW, channel: "Unknown" });
    // A lead from before attribution (no row) and one still settling.
    await addLead("Legacy");
    await addLead("Pending", { status: "pending", submittedAt: NOW, visitorId: "0".repeat(32) });
  });

  const filtered = async (query: string) => {
    const parsed = parseListQuery(new URL(`http://x/api/admin/leads?${query}`));
    if (!parsed.ok) throw new Error(`refused: ${await parsed.response.text()}`);
    const { leads } = await listLeads(db(), parsed.query);
    return leads.map((lead) => lead.fullName).sort();
  };

  it("filters the list by channel (its URL name) and by campaign", async () => {
    await expect(filtered("channel=email")).resolves.toEqual(["Email"]);
    await expect(filtered("channel=organic-search")).resolves.toEqual(["Search"]);
    await expect(filtered("campaign=launch")).resolves.toEqual(["Email"]);
    await expect(filtered("channel=email&campaign=other")).resolves.toEqual([]);
    // Unknown: nothing could be linked, including leads from before attribution; not one still settling.
    await expect(filtered("channel=unknown")).resolves.toEqual(["Legacy", "Unlinked"]);
    await expect(filtered("")).resolves.toHaveLength(5);
  });

  it("refuses a channel that does not exist and a campaign that is too long or has control characters", async () => {
    for (const query of ["channel=tv", `campaign=${"x".repeat(201)}`, "campaign=a%0Ab"]) {
      const parsed = parseListQuery(new URL(`http://x/api/admin/leads?${query}`));
      expect(parsed.ok, query).toBe(false);
      if (!parsed.ok) expect(parsed.response.status).toBe(400);
    }
  });

  it("returns the attribution with the lead, Unknown when nothing was linked", async () => {
    expect((await leadDetail(db(), ids.Email ?? 0))?.attribution).toEqual({
      status: "linked",
      landingPage: "/",
      referrer: "mail.example.net/inbox",
      channel: "Email",
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "launch",
      utmTerm: null,
      utmContent: "=HYPERLINK()",
      pagesBeforeSubmit: 3,
      secondsToSubmit: 72,
    });
    for (const name of ["Unlinked", "Legacy"])
      expect((await leadDetail(db(), ids[name] ?? 0))?.attribution).toMatchObject({
        status: "unknown",
        channel: "Unknown",
        landingPage: null,
        pagesBeforeSubmit: null,
      });
    expect((await leadDetail(db(), ids.Pending ?? 0))?.attribution).toMatchObject({
      status: "pending",
      channel: null,
    });
  });

  it("exports the attribution columns, formula-safe", async () => {
    const text = await new Response(leadsCsvStream(db(), { spam: "exclude" })).text();
    const [header, ...rows] = text.slice(1).trimEnd().split("\r\n");
    expect(header).toContain(
      '"Channel","Landing page","Referrer","UTM source","UTM medium","UTM campaign","UTM term","UTM content","Pages before submit","Seconds to submit"',
    );
    const email = rows.find((row) => row.includes("email@example.com"));
    expect(email).toContain(
      '"Email","/","mail.example.net/inbox","newsletter","email","launch","","\'=HYPERLINK()","3","72"',
    );
    expect(rows.find((row) => row.includes("legacy@example.com"))).toContain(
      '"Unknown","","","","","","","","",""',
    );
  });

  it("erases the attribution with the lead", async () => {
    const admin = createLeadAdmin({ db: db(), notify: false });
    await expect(admin.remove(ids.Email ?? 0, null, null)).resolves.toBe(true);
    const left = await db().selectFrom("leadAttributions").select("leadId").execute();
    expect(left.map((row) => Number(row.leadId))).not.toContain(ids.Email);
    expect(left).toHaveLength(3);
  });
});
