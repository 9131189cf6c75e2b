import { beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { type LeadListQuery, listLeads } from "./lead-admin.server.ts";
import { leadNeighbours } from "./lead-neighbours.server.ts";
import type { LeadStatus } from "./lead-repository.server.ts";

// Issue 35: a lead's previous and next within the list it came from, by keyset, agree with the list
// itself for every sort, direction and filter (ties on the sort key broken by id as the list does).

const NAMES = ["Zoe Brown", "adam Smith", "Émile Zola", "Bea Ng", "Bea Ng", "carl Ito", "Dana Roy", "Ed Fox"];
const STATUSES: LeadStatus[] = [
  "new",
  "contacted",
  "new",
  "customer",
  "qualified",
  "new",
  "unqualified",
  "new",
];

describeEachDatabase("lead neighbours", (use) => {
  const db = () => use().db;

  beforeEach(async () => {
    await db().deleteFrom("leads").execute();
    for (const [index, name] of NAMES.entries())
      await db()
        .insertInto("leads")
        .values(
          leadRow({
            fullName: name,
            company: `${String.fromCharCode(75 - index)} Co`,
            status: STATUSES[index],
            // Two leads at the same instant: the id breaks the tie.
            createdAt: new Date(Date.UTC(2026, 10, 1 + Math.min(index, 6))).toISOString(),
            isSpam: index === 7 ? 1 : 0,
          }),
        )
        .execute();
  });

  const queries: Omit<LeadListQuery, "page" | "pageSize">[] = [
    {},
    { sort: "createdAt", order: "asc" },
    { sort: "fullName" },
    { sort: "fullName", order: "desc" },
    { sort: "company" },
    { sort: "status" },
    { sort: "status", order: "desc", status: "new" },
    { status: "new" },
    { q: "bea" },
    { spam: "include", sort: "fullName" },
  ];

  it.each(queries.map((query) => [JSON.stringify(query), query] as const))(
    "agrees with the list for %s",
    async (_name, query) => {
      const { leads, total } = await listLeads(db(), { ...query, page: 1, pageSize: 100 });
      expect(leads.length).toBeGreaterThan(0);
      for (const [index, lead] of leads.entries()) {
        await expect(leadNeighbours(db(), query, lead)).resolves.toEqual({
          previous: leads[index - 1]?.id ?? null,
          next: leads[index + 1]?.id ?? null,
          total,
        });
      }
    },
  );
});
