import { beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { insertLead, type leadRow } from "../../../tests/support/lead-rows.ts";
import { createLeadAdmin, leadHistory } from "./lead-admin.server.ts";
import { BOARD_PAGE, boardColumn, formatCursor, loadBoard, parseCursor } from "./lead-board.server.ts";
import { listPageSizeOf, rememberListPageSize } from "./list-preferences.server.ts";

// Issue 35's board and kept page size on both databases: each status's column with the list's
// filters, paged by keyset newest first, its counts, and a person's rows per page.

const BASE = Date.parse("2026-11-20T09:00:00.000Z");
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

describeEachDatabase("lead board", (use) => {
  const db = () => use().db;
  let alice: { id: number; username: string };
  let bob: { id: number; username: string };

  const addLead = (values: Parameters<typeof leadRow>[0]) => insertLead(db(), values);

  beforeEach(async () => {
    for (const table of ["leadEvents", "leadStatusChanges", "leadActivities", "outbox", "leads"] as const)
      await db().deleteFrom(table).execute();
    await db().deleteFrom("users").execute();
    alice = await createUser(db(), { username: "alice", password: "Alice-Password-01", isAdmin: true });
    bob = await createUser(db(), { username: "bob", password: "Bob-Password-0001", isAdmin: true });
  });

  it("pages a status's column newest first by keyset, ties on the time broken by id, to its end", async () => {
    const ids: number[] = [];
    // 45 new leads, two of each minute (equal timestamps), plus others that must not show.
    for (let index = 0; index < 45; index++)
      ids.push(
        await addLead({ fullName: `New ${index}`, status: "new", createdAt: at(Math.floor(index / 2)) }),
      );
    await addLead({ fullName: "Contacted one", status: "contacted", createdAt: at(100) });
    await addLead({ fullName: "Spam", status: "new", isSpam: 1, createdAt: at(101) });

    const seen: number[] = [];
    let after = null;
    let pages = 0;
    do {
      const page = await boardColumn(db(), {}, "new", after);
      pages++;
      expect(page.cards.length).toBeLessThanOrEqual(BOARD_PAGE);
      seen.push(...page.cards.map((card) => card.id));
      expect(page.cards.every((card) => card.status === "new")).toBe(true);
      after = page.next ? parseCursor(formatCursor(page.next)) : null;
    } while (after);
    expect(pages).toBe(3);
    // Every new lead once, newest first (the later id first within a minute); no spam.
    const expected = ids
      .map((id, index) => ({ id, minute: Math.floor(index / 2) }))
      .sort((a, b) => b.minute - a.minute || b.id - a.id)
      .map((entry) => entry.id);
    expect(seen).toEqual(expected);
  });

  it("honours the list's filters in each column and counts each status, spam left out", async () => {
    await addLead({
      fullName: "Amara Okafor",
      company: "Okafor Build",
      status: "new",
      ownerId: alice.id,
      createdAt: at(1),
    });
    await addLead({ fullName: "Ben Mills", status: "new", ownerId: bob.id, createdAt: at(2) });
    await addLead({ fullName: "Cleo Stone", status: "contacted", ownerId: alice.id, createdAt: at(3) });
    await addLead({ fullName: "Dan Wu", status: "customer", createdAt: at(4), requestType: "investor" });
    await addLead({ fullName: "Held Spam", status: "contacted", isSpam: 1, createdAt: at(5) });

    const all = await loadBoard(db(), {});
    expect(Object.fromEntries(all.columns.map((column) => [column.status, column.count]))).toEqual({
      new: 2,
      contacted: 1,
      qualified: 0,
      unqualified: 0,
      customer: 1,
    });
    expect(all.columns[0]?.cards.map((card) => card.fullName)).toEqual(["Ben Mills", "Amara Okafor"]);
    expect(all.columns[0]?.cards[1]).toMatchObject({ company: "Okafor Build", ownerName: "alice" });

    const mine = await loadBoard(db(), { ownerId: alice.id });
    expect(mine.columns.map((column) => column.count)).toEqual([1, 1, 0, 0, 0]);
    expect(mine.columns[1]?.cards.map((card) => card.fullName)).toEqual(["Cleo Stone"]);

    const searched = await loadBoard(db(), { q: "okafor" });
    expect(searched.columns.map((column) => column.count)).toEqual([1, 0, 0, 0, 0]);
    expect(searched.columns[0]?.cards.map((card) => card.fullName)).toEqual(["Amara Okafor"]);

    const investors = await loadBoard(db(), { type: "investor" });
    expect(investors.columns.map((column) => column.count)).toEqual([0, 0, 0, 0, 1]);

    const spam = await loadBoard(db(), { spam: "only" });
    expect(spam.columns.map((column) => column.count)).toEqual([0, 1, 0, 0, 0]);
  });

  it("moves a card with the list's status change: the counts follow and the history records it", async () => {
    const id = await addLead({ fullName: "Mover", status: "new", createdAt: at(1) });
    const admin = createLeadAdmin({ db: db(), notify: false });
    await admin.setStatus(id, "contacted", alice);
    const board = await loadBoard(db(), {});
    expect(board.columns.map((column) => column.count)).toEqual([0, 1, 0, 0, 0]);
    expect(board.columns[1]?.cards.map((card) => card.id)).toEqual([id]);
    expect(
      (await leadHistory(db(), id)).map((change) => [change.fromStatus, change.toStatus, change.changedBy]),
    ).toEqual([["new", "contacted", "alice"]]);
  });

  it("reads only a well-formed cursor", () => {
    expect(parseCursor("2026-11-20T09:00:00.000Z_42")).toEqual({
      createdAt: "2026-11-20T09:00:00.000Z",
      id: 42,
    });
    for (const bad of [null, "", "42", "2026-11-20_42", "2026-11-20T09:00:00.000Z_", "x".repeat(100)])
      expect(parseCursor(bad)).toBeNull();
  });

  it("keeps each person's rows per page, 10 (none kept) until they choose", async () => {
    expect(await listPageSizeOf(db(), alice.id)).toBeNull();
    await rememberListPageSize(db(), alice.id, 50);
    await rememberListPageSize(db(), alice.id, 50);
    expect(await listPageSizeOf(db(), alice.id)).toBe(50);
    expect(await listPageSizeOf(db(), bob.id)).toBeNull();
    await rememberListPageSize(db(), bob.id, 25);
    await rememberListPageSize(db(), alice.id, 10);
    expect(await listPageSizeOf(db(), alice.id)).toBe(10);
    expect(await listPageSizeOf(db(), bob.id)).toBe(25);
    // A size no longer offered reads as none kept.
    await db().updateTable("users").set({ listPageSize: 7 }).where("id", "=", bob.id).execute();
    expect(await listPageSizeOf(db(), bob.id)).toBeNull();
  });
});
