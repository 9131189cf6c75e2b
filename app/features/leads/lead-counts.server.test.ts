import { sql } from "kysely";
import { beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { countMatchingLeads, type LeadFilter } from "./lead-admin.server.ts";
import { LEAD_STATUSES } from "./lead-repository.server.ts";

// The trigger-kept lead_counts (migration 013) must equal counting the rows, whatever writes the
// leads: single inserts, multi-row inserts, updates of one lead or many, deletes. Checked against
// count(*) for every filter combination the list offers, on both databases.

describeEachDatabase("lead counts", (use) => {
  const db = () => use().db;
  let owners: number[] = [];

  beforeEach(async () => {
    for (const table of ["leadNotes", "leadEvents", "leadStatusChanges", "outbox", "leads"] as const)
      await db().deleteFrom(table).execute();
    await db().deleteFrom("users").execute();
    owners = [];
    for (const username of ["count-owner-1", "count-owner-2"])
      owners.push(
        (await createUser(db(), { username, password: "a long enough password", isAdmin: true })).id,
      );
  });

  /** Every combination of the counted filters, each checked against count(*) over the leads. */
  async function expectCountsExact(): Promise<void> {
    const filters: LeadFilter[] = [];
    for (const spam of ["exclude", "only", "include"] as const)
      for (const status of [undefined, ...LEAD_STATUSES])
        for (const ownerId of [undefined, null, ...owners])
          for (const type of [undefined, "demo", "investor"] as const)
            filters.push({ spam, status, ownerId, type });
    // Anonymised leads (migration 020) have left the list: its counts leave them out.
    const expected = await db()
      .selectFrom("leads")
      .select(["isSpam", "status", "ownerId", "requestType", (eb) => eb.fn.countAll().as("count")])
      .where("anonymisedAt", "is", null)
      .groupBy(["isSpam", "status", "ownerId", "requestType"])
      .execute();
    for (const filter of filters) {
      const want = expected
        .filter(
          (row) =>
            (filter.spam === "include" || Number(row.isSpam) === (filter.spam === "only" ? 1 : 0)) &&
            (!filter.status || row.status === filter.status) &&
            (filter.ownerId === undefined ||
              (row.ownerId === null ? null : Number(row.ownerId)) === filter.ownerId) &&
            (!filter.type || row.requestType === filter.type),
        )
        .reduce((sum, row) => sum + Number(row.count), 0);
      expect({ filter, count: await countMatchingLeads(db(), filter) }).toEqual({ filter, count: want });
    }
  }

  /** Every lead by status, anonymised or not: what the summary strip's pipeline reads. */
  async function pipeline(): Promise<Record<string, number>> {
    const rows = await db()
      .selectFrom("leadCounts")
      .select(["status", (eb) => eb.fn.sum("count").as("count")])
      .groupBy("status")
      .execute();
    return Object.fromEntries(
      rows.map((row) => [row.status, Number(row.count)]).filter(([, count]) => count !== 0),
    );
  }

  it("stays equal to counting the rows through inserts, updates and deletes", async () => {
    // A seeded sequence, so a failure replays.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    const ownerOrNone = () => pick([null, ...owners]);

    // One insert of many rows (one statement), then single inserts.
    await db()
      .insertInto("leads")
      .values(
        Array.from({ length: 40 }, (_, index) =>
          leadRow({
            email: `bulk${index}@example.com`,
            requestType: pick(["demo", "investor"] as const),
            status: pick(LEAD_STATUSES),
            isSpam: random() < 0.2 ? 1 : 0,
            ownerId: ownerOrNone(),
          }),
        ),
      )
      .execute();
    for (let index = 0; index < 20; index++)
      await db()
        .insertInto("leads")
        .values(
          leadRow({ email: `one${index}@example.com`, status: pick(LEAD_STATUSES), ownerId: ownerOrNone() }),
        )
        .execute();
    await expectCountsExact();

    const ids = (await db().selectFrom("leads").select("id").orderBy("id").execute()).map((row) =>
      Number(row.id),
    );
    // Updates of one lead at a time: each counted dimension, and one that changes none of them.
    for (let step = 0; step < 30; step++) {
      const id = pick(ids);
      await db()
        .updateTable("leads")
        .set(
          pick([
            { status: pick(LEAD_STATUSES) },
            { ownerId: ownerOrNone() },
            { isSpam: random() < 0.5 ? 1 : 0 },
            { requestType: pick(["demo", "investor"] as const) },
            { status: pick(LEAD_STATUSES), ownerId: ownerOrNone(), isSpam: 0 },
            { spamScore: 12 },
          ]),
        )
        .where("id", "=", id)
        .execute();
    }
    await expectCountsExact();

    // Bulk updates (one statement, many leads), as the bulk actions send them.
    await db()
      .updateTable("leads")
      .set({ status: "contacted" })
      .where("id", "in", ids.slice(0, 25))
      .execute();
    await db()
      .updateTable("leads")
      .set({ ownerId: owners[0] })
      .where("id", "in", ids.slice(10, 45))
      .execute();
    await db().updateTable("leads").set({ isSpam: 1 }).where("id", "in", ids.slice(30, 35)).execute();
    await expectCountsExact();

    // Anonymising (the retention purge, migration 020) takes leads out of the list's counts, alone
    // or with another change in the same statement; the pipeline still counts them.
    const pipelineBefore = await pipeline();
    await db()
      .updateTable("leads")
      .set({ anonymisedAt: "2026-11-26T00:00:00.000Z", fullName: "", email: "" })
      .where("id", "in", ids.slice(45, 55))
      .execute();
    await expectCountsExact();
    expect(await pipeline()).toEqual(pipelineBefore);
    await db()
      .updateTable("leads")
      .set({ anonymisedAt: "2026-11-26T00:00:00.000Z", status: "customer" })
      .where("id", "=", ids[56] as number)
      .execute();
    await expectCountsExact();

    // Deletes, one and many; then an owner's leads unassigned as a user's removal would.
    await db()
      .deleteFrom("leads")
      .where("id", "=", ids[3] as number)
      .execute();
    await db().deleteFrom("leads").where("id", "in", ids.slice(40, 52)).execute();
    await db()
      .updateTable("leads")
      .set({ ownerId: null })
      .where("ownerId", "=", owners[1] as number)
      .execute();
    await expectCountsExact();

    await db().deleteFrom("leads").execute();
    await expectCountsExact();
    const left = await db()
      .selectFrom("leadCounts")
      .select((eb) => eb.fn.sum("count").as("count"))
      .executeTakeFirst();
    expect(Number(left?.count ?? 0)).toBe(0);
  });

  it("counts by rows when a filter is one the counts are not kept for", async () => {
    await db()
      .insertInto("leads")
      .values([
        leadRow({ email: "a@example.com", fullName: "Ada Lovelace", createdAt: "2026-11-01T10:00:00.000Z" }),
        leadRow({ email: "b@example.com", fullName: "Grace Hopper", createdAt: "2026-11-20T10:00:00.000Z" }),
      ])
      .execute();
    expect(await countMatchingLeads(db(), {})).toBe(2);
    expect(await countMatchingLeads(db(), { q: "grace" })).toBe(1);
    expect(await countMatchingLeads(db(), { q: "  " })).toBe(2);
    expect(await countMatchingLeads(db(), { from: "2026-11-10" })).toBe(1);
    const ids = (await db().selectFrom("leads").select("id").execute()).map((row) => Number(row.id));
    expect(await countMatchingLeads(db(), { ids: ids.slice(0, 1) })).toBe(1);
  });

  it("concurrent submissions all count (PostgreSQL locks each counter row until commit)", async () => {
    await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        db()
          .transaction()
          .execute(async (trx) => {
            await trx
              .insertInto("leads")
              .values(leadRow({ email: `c${index}@example.com` }))
              .execute();
            // Hold the transaction open a moment, as a submission's other writes would.
            await sql`select 1`.execute(trx);
          }),
      ),
    );
    expect(await countMatchingLeads(db(), {})).toBe(24);
  });
});
