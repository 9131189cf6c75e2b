import { beforeEach, expect, it } from "vitest";
import { createUser, type PublicUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { createLeadAdmin } from "./lead-admin.server.ts";
import { leadDetail } from "./lead-admin-http.server.ts";
import {
  clearNextStep,
  isOverdue,
  NextStepSchema,
  nextStepsOf,
  setNextStep,
} from "./lead-next-step.server.ts";
import {
  deleteView,
  listSavedViews,
  MAX_VIEWS_PER_USER,
  SavedViewSchema,
  saveView,
  TooManyViewsError,
} from "./saved-views.server.ts";

// Issue 23's work-first list on both databases: views a team keeps, and each lead's next step.

const NOW = new Date("2026-11-27T10:00:00.000Z");

describeEachDatabase("lead worklist", (use) => {
  const db = () => use().db;
  let alice: PublicUser;
  let bob: PublicUser;

  async function addLead(): Promise<number> {
    const row = await db()
      .insertInto("leads")
      .values(leadRow({ createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() }))
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  beforeEach(async () => {
    for (const table of [
      "savedViews",
      "leadActivities",
      "leadNotes",
      "leadEvents",
      "leadStatusChanges",
      "outbox",
      "leads",
    ] as const)
      await db().deleteFrom(table).execute();
    await db().deleteFrom("users").execute();
    alice = await createUser(db(), { username: "alice", password: "Alice-Password-01", isAdmin: true });
    bob = await createUser(db(), { username: "bob", password: "Bob-Password-0001", isAdmin: true });
  });

  it("keeps a personal view for its owner and a team view for everyone, and saving a name again updates it", async () => {
    const mine = SavedViewSchema.parse({
      name: "  New this week ",
      scope: "personal",
      query: "status=new&from=2026-11-20&page=3&notice=bulk",
    });
    expect(mine).toEqual({ name: "New this week", scope: "personal", query: "status=new&from=2026-11-20" });
    await saveView(db(), alice, mine);
    await saveView(
      db(),
      bob,
      SavedViewSchema.parse({
        name: "Investors by company",
        scope: "team",
        query: "type=investor&sort=company&order=asc",
      }),
    );

    expect(await listSavedViews(db(), alice)).toEqual([
      {
        id: expect.any(Number),
        name: "Investors by company",
        query: "type=investor&sort=company&order=asc",
        shared: true,
        ownerName: "bob",
        mine: false,
      },
      {
        id: expect.any(Number),
        name: "New this week",
        query: "status=new&from=2026-11-20",
        shared: false,
        ownerName: "alice",
        mine: true,
      },
    ]);
    expect((await listSavedViews(db(), bob)).map((view) => view.name)).toEqual(["Investors by company"]);

    // Saved again under the same name: the filters and the scope change, no second row.
    await saveView(
      db(),
      alice,
      SavedViewSchema.parse({ name: "New this week", scope: "team", query: "status=contacted" }),
    );
    const bobSees = await listSavedViews(db(), bob);
    expect(bobSees.map((view) => [view.name, view.query, view.mine])).toEqual([
      ["Investors by company", "type=investor&sort=company&order=asc", true],
      ["New this week", "status=contacted", false],
    ]);

    // Only the owner deletes a view.
    const shared = bobSees.find((view) => view.name === "New this week");
    expect(await deleteView(db(), bob, shared?.id ?? 0)).toBe(false);
    expect(await deleteView(db(), alice, shared?.id ?? 0)).toBe(true);
    expect((await listSavedViews(db(), alice)).map((view) => view.name)).toEqual(["Investors by company"]);
  });

  it("refuses a view the list would refuse, a blank or long name, and more than the cap", async () => {
    expect(SavedViewSchema.safeParse({ name: "x", scope: "personal", query: "status=bogus" }).success).toBe(
      false,
    );
    expect(
      SavedViewSchema.safeParse({ name: "x", scope: "personal", query: "from=2026-11-30&to=2026-11-01" })
        .success,
    ).toBe(false);
    expect(SavedViewSchema.safeParse({ name: " ", scope: "personal", query: "" }).success).toBe(false);
    expect(SavedViewSchema.safeParse({ name: "x".repeat(61), scope: "team", query: "" }).success).toBe(false);
    expect(SavedViewSchema.safeParse({ name: "a\u0007b", scope: "team", query: "" }).success).toBe(false);
    expect(SavedViewSchema.safeParse({ name: "x", scope: "everyone", query: "" }).success).toBe(false);
    await db()
      .insertInto("savedViews")
      .values(
        Array.from({ length: MAX_VIEWS_PER_USER }, (_, index) => ({
          ownerUserId: alice.id,
          name: `View ${index}`,
          query: "",
          shared: 0,
          createdAt: NOW.toISOString(),
        })),
      )
      .execute();
    await expect(
      saveView(db(), alice, SavedViewSchema.parse({ name: "One more", scope: "personal", query: "" })),
    ).rejects.toBeInstanceOf(TooManyViewsError);
    // Updating one of the fifty is still allowed.
    await expect(
      saveView(db(), alice, SavedViewSchema.parse({ name: "View 3", scope: "team", query: "owner=none" })),
    ).resolves.toMatchObject({ shared: true, query: "owner=none" });
  });

  it("sets, replaces and clears a lead's next step, each on the timeline, and erases it with the lead", async () => {
    const id = await addLead();
    const input = NextStepSchema.parse({ body: " Call back about pricing ", dueOn: "2026-11-26" });
    expect(await setNextStep(db(), id, input, alice, NOW)).toBe(true);
    // Issue 35: the next step is the lead's earliest open task, due at the end of its day.
    expect((await nextStepsOf(db(), [id])).get(id)).toMatchObject({
      body: "Call back about pricing",
      dueOn: "2026-11-26",
      dueAt: "2026-11-26T23:59:59.999Z",
      author: "alice",
      setAt: NOW.toISOString(),
    });
    expect(isOverdue("2026-11-26", NOW)).toBe(true);
    expect(isOverdue("2026-11-27", NOW)).toBe(false);

    const later = new Date(NOW.getTime() + 60_000);
    await setNextStep(db(), id, { body: "Send the proposal", dueOn: "2026-12-01" }, bob, later);
    // Bob (an admin) rewrote Alice's task: it stays hers, the timeline says who changed it.
    expect((await nextStepsOf(db(), [id, 999])).get(id)).toMatchObject({
      body: "Send the proposal",
      author: "alice",
      assignee: "alice",
      setAt: later.toISOString(),
    });
    expect(await clearNextStep(db(), id, alice, new Date(later.getTime() + 60_000))).toBe(true);
    expect((await nextStepsOf(db(), [id])).size).toBe(0);
    // Nothing to clear: nothing recorded.
    expect(await clearNextStep(db(), id, alice)).toBe(true);

    const timeline = (await leadDetail(db(), id))?.timeline ?? [];
    expect(timeline.slice(0, 3)).toMatchObject([
      { kind: "next_step_cleared", actor: "alice", text: "Send the proposal", assignee: "alice" },
      {
        kind: "next_step_set",
        actor: "bob",
        text: "Send the proposal",
        due: "2026-12-01",
        assignee: "alice",
        taskId: expect.any(Number),
      },
      { kind: "next_step_set", actor: "alice", text: "Call back about pricing", due: "2026-11-26" },
    ]);
    expect(timeline).toHaveLength(4);

    expect(await setNextStep(db(), 999_999, input, alice)).toBe(false);
    expect(await clearNextStep(db(), 999_999, alice)).toBe(false);

    await setNextStep(db(), id, input, alice, NOW);
    await createLeadAdmin({ db: db(), notify: false }).remove(id, alice, null);
    expect(await db().selectFrom("leadActivities").selectAll().execute()).toEqual([]);
  });

  it("refuses an empty, long or multi-line next step and a day that does not exist", () => {
    const bad = [
      { body: "", dueOn: "2026-12-01" },
      { body: "x".repeat(201), dueOn: "2026-12-01" },
      { body: "one\ntwo", dueOn: "2026-12-01" },
      { body: "Call", dueOn: "2026-02-30" },
      { body: "Call", dueOn: "" },
      { body: "Call", dueOn: "12/01/2026" },
    ];
    for (const input of bad)
      expect(NextStepSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });
});
