import { sql } from "kysely";
import { beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { countMatchingLeads, type LeadFilter } from "./lead-admin.server.ts";
import { compactLeadCounts } from "./lead-counts.server.ts";
import { LEAD_STATUSES } from "./lead-repository.server.ts";
import { createLeadService } from "./lead-service.server.ts";
import { issueTimeToken } from "./time-token.server.ts";

// The trigger-kept lead_counts (migration 013) must equal counting the rows, whatever writes the
// leads: single inserts, multi-row inserts, updates of one lead or many, deletes. Checked against
// count(*) for every filter combination the list offers, on both databases. On PostgreSQL each
// database session writes counter rows of its own (migration 032), folded together now and then by
// compactLeadCounts: a submission never waits on another's counter row, and the counts stay exact.

describeEachDatabase("lead counts", (use) => {
  const db = () => use().db;
  let owners: number[] = [];

  beforeEach(async () => {
    for (const table of [
      "leadNotes",
      "leadEvents",
      "leadStatusChanges",
      "leadAttributions",
      "outbox",
      "rateLimits",
      "leads",
    ] as const)
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

  /** Counter rows outside shard 0: PostgreSQL's per-session rows not folded yet (SQLite's id shards). */
  async function sessionRows(): Promise<number> {
    const row = await db()
      .selectFrom("leadCounts")
      .select((eb) => eb.fn.countAll().as("count"))
      .where("shard", "<>", 0)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  const SECRET = "lead-counts-secret-lead-counts-secret";
  const submission = (index: number) => ({
    fullName: "Amara Okafor",
    email: `amara${index}@okafor-build.co.uk`,
    company: "Okafor Build Ltd",
    phone: "+44 7700 900123",
    message: "We manage 40 subcontracts per project.",
  });
  const context = (index: number) => ({
    clientAddress: `192.0.2.${index}`,
    timeToken: issueTimeToken(SECRET, Date.now() - 60_000),
    sourcePage: "/demo",
  });
  const service = () =>
    createLeadService({
      db: db(),
      secret: SECRET,
      rateLimiter: createRateLimiter(db(), { limit: 100, windowMs: 600_000 }),
      notify: true,
    });

  it("stores a submission while another lead's transaction is open, without waiting for it", async () => {
    // An import or a hand-added lead whose transaction is still open when a visitor submits. Before
    // migration 032 the two shared a counter row whenever their ids were equal modulo 8 (the next id
    // is made so here), and the submission waited for the other's commit.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted = () => {};
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const open = db()
      .transaction()
      .execute(async (trx) => {
        const { id } = await trx
          .insertInto("leads")
          .values(leadRow({ email: "import@example.com" }))
          .returning("id")
          .executeTakeFirstOrThrow();
        if (use().dialect === "postgres")
          await sql`select setval(pg_get_serial_sequence('leads', 'id'), ${Number(id) + 7})`.execute(trx);
        inserted();
        // SQLite has one writer at a time: the question does not arise, the submission follows.
        if (use().dialect === "postgres") await held;
        return Number(id);
      });
    await insertedYet;
    if (use().dialect === "sqlite") await open;
    // A generous bound: the submission either does not wait (milliseconds) or waits until released.
    let timer: NodeJS.Timeout | undefined;
    const stillWaiting = new Promise<"still waiting">((resolve) => {
      timer = setTimeout(resolve, 15_000, "still waiting");
    });
    let result: Awaited<ReturnType<ReturnType<typeof service>["submit"]>> | "still waiting";
    try {
      result = await Promise.race([service().submit(submission(1), context(1)), stillWaiting]);
    } finally {
      clearTimeout(timer);
      release();
    }
    const firstId = await open;
    expect(result).toMatchObject({ kind: "stored", spam: false });
    if (result !== "still waiting" && result.kind === "stored" && use().dialect === "postgres")
      expect(result.id % 8).toBe(firstId % 8);
    await expectCountsExact();
    expect(await countMatchingLeads(db(), { status: "new", type: "demo", ownerId: null })).toBe(2);
  }, 30_000);

  it("keeps the counts exact through concurrent submissions, changes, a failed transaction and compaction", async () => {
    // Concurrent submissions through the service (each its own transaction, on the pool's sessions).
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, index) => service().submit(submission(index), context(index + 10))),
    );
    expect(results.every((result) => result.kind === "stored")).toBe(true);
    const ids = results.map((result) => (result.kind === "stored" ? result.id : 0));
    expect(await countMatchingLeads(db(), {})).toBe(24);
    await expectCountsExact();

    // Status changes, spam verdicts and owners, concurrently, then the retention purge's anonymising
    // and a delete.
    await Promise.all(
      ids.slice(0, 12).map((id, index) =>
        db()
          .updateTable("leads")
          .set(
            index % 3 === 0
              ? { status: "contacted" }
              : index % 3 === 1
                ? { isSpam: 1 }
                : { ownerId: owners[index % 2] },
          )
          .where("id", "=", id)
          .execute(),
      ),
    );
    await db()
      .updateTable("leads")
      .set({ anonymisedAt: "2026-11-26T00:00:00.000Z", fullName: "", email: "" })
      .where("id", "in", ids.slice(12, 15))
      .execute();
    await db().deleteFrom("leads").where("id", "in", ids.slice(15, 17)).execute();
    await expectCountsExact();

    // A transaction that fails after its lead's insert (as a crash before the commit would): neither
    // the lead nor its count is there.
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto("leads")
            .values(leadRow({ email: "lost@example.com" }))
            .execute();
          await trx
            .updateTable("leads")
            .set({ status: "customer" })
            .where("id", "=", ids[17] as number)
            .execute();
          throw new Error("the process died here");
        }),
    ).rejects.toThrow("the process died here");
    await expectCountsExact();

    // A compaction that fails part-way changes nothing either (one statement, in its transaction).
    const rowsBefore = await sessionRows();
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await compactLeadCounts(trx);
          throw new Error("the process died here");
        }),
    ).rejects.toThrow("the process died here");
    expect(await sessionRows()).toBe(rowsBefore);
    await expectCountsExact();

    // Compaction beside a lead whose transaction is open: it skips that session's row rather than
    // waiting for it, and the lead counts once it commits.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted = () => {};
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const open = db()
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto("leads")
          .values(leadRow({ email: "late@example.com" }))
          .execute();
        inserted();
        if (use().dialect === "postgres") await held;
      });
    await insertedYet;
    if (use().dialect === "sqlite") await open;
    try {
      await compactLeadCounts(db());
      await expectCountsExact();
    } finally {
      release();
    }
    await open;
    await expectCountsExact();
    await compactLeadCounts(db());
    await expectCountsExact();
    expect(await countMatchingLeads(db(), {})).toBe(24 - 3 - 2 - 4 + 1);
    // On PostgreSQL every session's rows are folded into shard 0 once none is held.
    if (use().dialect === "postgres") expect(await sessionRows()).toBe(0);
  }, 60_000);
});
