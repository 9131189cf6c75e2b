import { type Kysely, sql } from "kysely";
import { beforeEach, expect, it } from "vitest";
import type { Database } from "#app/db/schema.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import {
  filterLeads,
  type LeadListQuery,
  type LeadSort,
  listLeads,
  orderLeads,
} from "./lead-admin.server.ts";
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

const DUE: (string | undefined)[] = [
  "2026-12-01T09:00:00.000Z",
  undefined,
  "2026-12-01T09:00:00.000Z",
  "2026-11-30T17:00:00.000Z",
  undefined,
  "2026-12-04T23:59:59.999Z",
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
            // Next steps with a tie and leads without one (last, either way).
            nextTaskDueAt: DUE[index] ?? null,
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
    { sort: "nextStep" },
    { sort: "nextStep", order: "desc" },
    { sort: "nextStep", status: "new" },
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

  // Migration 040: the whole list sorted by name, company or status is read in order from an index
  // and stops after a page, on both databases, where each page and each step of previous/next
  // sorted every live lead. PostgreSQL is told not to scan or sort when it can help it, so its plan
  // names the index only if the list's ORDER BY is the very expression the index holds.
  const SORT_INDEXES: [LeadSort, string][] = [
    ["fullName", "leads_live_name_idx"],
    ["company", "leads_live_company_idx"],
    ["status", "leads_live_status_rank_idx"],
  ];
  it.each(
    SORT_INDEXES.flatMap(([sort, index]) =>
      (["asc", "desc"] as const).map((order) => [sort, order, index] as const),
    ),
  )("reads the whole list by %s %s through %s", async (sort, order, index) => {
    const plan = await explain(db(), (trx) =>
      orderLeads(trx, filterLeads(trx.selectFrom("leads").select("leads.id"), {}), sort, order)
        .limit(10)
        .compile(),
    );
    expect(plan).toContain(index);
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key/);
  });
});

/** The plan of a query, with PostgreSQL's sequential scans and sorts discouraged. */
async function explain(
  db: Kysely<Database>,
  compile: (db: Kysely<Database>) => { sql: string; parameters: readonly unknown[] },
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const query = compile(trx);
    const postgres = query.sql.includes("$1");
    if (postgres) {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_sort = off`.execute(trx);
    }
    const literal = (value: unknown) =>
      typeof value === "string" ? `'${value.replaceAll("'", "''")}'` : String(value);
    let next = 0;
    const text = query.sql.replace(/\$(\d+)|\?/g, (_match, position?: string) =>
      literal(query.parameters[position ? Number(position) - 1 : next++]),
    );
    const { rows } = await sql
      .raw<Record<string, string>>(`explain ${postgres ? "" : "query plan "}${text}`)
      .execute(trx);
    return rows.map((row) => row.detail ?? row["QUERY PLAN"]).join("; ");
  });
}
