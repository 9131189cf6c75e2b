import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { migrateToLatest } from "#app/db/migrate.server.ts";
import { createUser, type PublicUser } from "#app/features/auth/users.server.ts";
import { formatKeysetCursor, parseKeysetCursor } from "#app/lib/keyset-cursor.ts";
import {
  checkPostgres,
  createTestDatabase,
  describeEachDatabase,
  withDatabaseBefore,
} from "../../../tests/support/databases.ts";
import { insertLead, leadRow } from "../../../tests/support/lead-rows.ts";
import {
  ActivityInputSchema,
  addActivity,
  countOpenTasks,
  dueTasksFor,
  endOfDay,
  listTasks,
  pageTasks,
  type TaskCursor,
  TaskNotYoursError,
  TaskPatchSchema,
  UnknownAssigneeError,
  updateTask,
} from "./lead-activities.server.ts";
import { createLeadAdmin } from "./lead-admin.server.ts";
import { leadDetail } from "./lead-admin-http.server.ts";
import { activityFromForm } from "./lead-detail.server.ts";
import { clearNextStep, nextStepsOf, setNextStep } from "./lead-next-step.server.ts";
import {
  chooseTaskDigest,
  composeTaskDigest,
  createTaskDigestSender,
  queueTaskDigests,
  TASK_DIGEST_EMAIL,
} from "./task-digest.server.ts";

// Issue 35 on both databases: calls, e-mails and tasks on a lead, the lead's next step kept as its
// earliest open task, the tasks' lists (paged by keyset: none repeated or skipped, equal due times
// too), and the morning e-mail queued once a day per person.

const NOW = new Date("2026-12-01T10:00:00.000Z");
const at = (iso: string) => new Date(iso);

describeEachDatabase("lead activities and tasks", (use) => {
  const db = () => use().db;
  let alice: PublicUser;
  let bob: PublicUser;

  const addLead = (fullName = "Ada Prospect") =>
    insertLead(db(), { fullName, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() });
  const leadRowOf = (id: number) =>
    db()
      .selectFrom("leads")
      .select(["nextTaskId", "nextTaskDueAt"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const task = (body: string, dueAt: string, assigneeId?: number) =>
    ActivityInputSchema.parse({ kind: "task", body, dueAt, assigneeId }) as Extract<
      ReturnType<typeof ActivityInputSchema.parse>,
      { kind: "task" }
    >;

  beforeEach(async () => {
    for (const table of [
      "taskDigests",
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

  it("logs a call, an e-mail and a task, and the lead's timeline lists each", async () => {
    const id = await addLead();
    const call = await addActivity(
      db(),
      id,
      { kind: "call", outcome: "left_voicemail", durationMinutes: 3, body: "Asked for a call back" },
      alice,
      NOW,
    );
    expect(call).toMatchObject({
      kind: "call",
      outcome: "left_voicemail",
      durationMinutes: 3,
      author: "alice",
    });
    await addActivity(
      db(),
      id,
      { kind: "email", direction: "sent", body: "Sent the deck" },
      alice,
      at("2026-12-01T10:01:00Z"),
    );
    const added = await addActivity(
      db(),
      id,
      task("Call back about pricing", "2026-12-03T09:00:00+01:00", bob.id),
      alice,
      at("2026-12-01T10:02:00Z"),
    );
    expect(added).toMatchObject({ kind: "task", dueAt: "2026-12-03T08:00:00.000Z", assigneeId: bob.id });
    const timeline = (await leadDetail(db(), id))?.timeline ?? [];
    expect(timeline.slice(0, 3)).toMatchObject([
      {
        kind: "task_added",
        actor: "alice",
        text: "Call back about pricing",
        due: "2026-12-03T08:00:00.000Z",
        assignee: "bob",
      },
      { kind: "email", actor: "alice", direction: "sent", body: "Sent the deck" },
      {
        kind: "call",
        actor: "alice",
        outcome: "left_voicemail",
        durationMinutes: 3,
        body: "Asked for a call back",
      },
    ]);
    expect(await addActivity(db(), 999_999, { kind: "email", body: "x" }, alice)).toBeUndefined();
    await expect(
      addActivity(db(), id, task("Nobody's", "2026-12-03T09:00:00Z", 999_999), alice),
    ).rejects.toBeInstanceOf(UnknownAssigneeError);
  });

  it("refuses what the composer and the API must not take", () => {
    const bad = [
      { kind: "call", outcome: "great" },
      { kind: "call", outcome: "connected", durationMinutes: -1 },
      { kind: "call", outcome: "connected", durationMinutes: 601 },
      { kind: "call", outcome: "connected", durationMinutes: 1.5 },
      { kind: "email", body: "  " },
      { kind: "email", body: "a\u0007b" },
      { kind: "task", body: "", dueAt: "2026-12-03T09:00:00Z" },
      { kind: "task", body: "two\nlines", dueAt: "2026-12-03T09:00:00Z" },
      { kind: "task", body: "x".repeat(201), dueAt: "2026-12-03T09:00:00Z" },
      { kind: "task", body: "Call", dueAt: "2026-12-03" },
      { kind: "task", body: "Call", dueAt: "3026-12-03T09:00:00Z" },
      { kind: "task", body: "Call", dueAt: "2026-12-03T09:00:00Z", assigneeId: 0 },
      { kind: "note", body: "" },
      { kind: "meeting", body: "x" },
    ];
    for (const input of bad)
      expect(ActivityInputSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
    expect(TaskPatchSchema.safeParse({}).success).toBe(false);
    expect(TaskPatchSchema.safeParse({ done: "yes" }).success).toBe(false);
    expect(TaskPatchSchema.safeParse({ done: true, extra: 1 }).success).toBe(false);
    // The composer's date and time are read in the person's zone.
    expect(
      activityFromForm(
        "task",
        { body: "Demo", dueDate: "2026-07-02", dueTime: "09:30", assigneeId: "" },
        "Europe/London",
      ),
    ).toMatchObject({ kind: "task", dueAt: "2026-07-02T08:30:00.000Z" });
    expect(activityFromForm("task", { body: "Demo", dueDate: "2026-02-30", dueTime: "09:30" }, "UTC")).toBe(
      "Choose the day the task is due.",
    );
    expect(activityFromForm("call", { outcome: "busy", durationMinutes: "", body: "" }, "UTC")).toMatchObject(
      {
        kind: "call",
        outcome: "busy",
      },
    );
  });

  it("keeps the lead's earliest open task as its next step through adding, completing and reopening", async () => {
    const id = await addLead();
    const later = await addActivity(db(), id, task("Send the proposal", "2026-12-05T09:00:00Z"), alice, NOW);
    expect(await leadRowOf(id)).toEqual({ nextTaskId: later?.id, nextTaskDueAt: "2026-12-05T09:00:00.000Z" });
    const sooner = await addActivity(db(), id, task("Call back", "2026-12-02T09:00:00Z"), alice, NOW);
    expect(await leadRowOf(id)).toEqual({
      nextTaskId: sooner?.id,
      nextTaskDueAt: "2026-12-02T09:00:00.000Z",
    });
    expect((await nextStepsOf(db(), [id])).get(id)).toMatchObject({ body: "Call back", dueOn: "2026-12-02" });

    const done = await updateTask(db(), sooner?.id ?? 0, { done: true }, bob, at("2026-12-01T11:00:00Z"));
    expect(done).toMatchObject({ doneAt: "2026-12-01T11:00:00.000Z", doneBy: "bob" });
    expect(await leadRowOf(id)).toEqual({ nextTaskId: later?.id, nextTaskDueAt: "2026-12-05T09:00:00.000Z" });
    // Done again: nothing new on the timeline.
    await updateTask(db(), sooner?.id ?? 0, { done: true }, bob, at("2026-12-01T11:01:00Z"));
    await updateTask(db(), sooner?.id ?? 0, { done: false }, alice, at("2026-12-01T11:02:00Z"));
    expect(await leadRowOf(id)).toEqual({
      nextTaskId: sooner?.id,
      nextTaskDueAt: "2026-12-02T09:00:00.000Z",
    });
    // Moved after the other: the other is next.
    await updateTask(
      db(),
      sooner?.id ?? 0,
      { dueAt: "2026-12-09T09:00:00.000Z", assigneeId: bob.id },
      alice,
      NOW,
    );
    expect(await leadRowOf(id)).toMatchObject({ nextTaskId: later?.id });
    await expect(updateTask(db(), later?.id ?? 0, { assigneeId: 999_999 }, alice)).rejects.toBeInstanceOf(
      UnknownAssigneeError,
    );
    expect(await updateTask(db(), 999_999, { done: true }, alice)).toBeUndefined();

    const kinds = ((await leadDetail(db(), id))?.timeline ?? []).map((entry) => entry.kind);
    expect(kinds.filter((kind) => kind.startsWith("task_"))).toEqual([
      "task_reopened",
      "task_done",
      // Moved and reassigned, recorded at NOW (before the completion's time).
      "task_changed",
      "task_added",
      "task_added",
    ]);

    // The Work card's "Mark done" completes the next step; setting one rewrites the earliest open task.
    await setNextStep(db(), id, { body: "Send the proposal v2", dueOn: "2026-12-04" }, alice, NOW);
    expect(await leadRowOf(id)).toEqual({ nextTaskId: later?.id, nextTaskDueAt: "2026-12-04T23:59:59.999Z" });
    await clearNextStep(db(), id, alice, NOW);
    expect(await leadRowOf(id)).toMatchObject({ nextTaskId: sooner?.id });
    await clearNextStep(db(), id, alice, NOW);
    expect(await leadRowOf(id)).toEqual({ nextTaskId: null, nextTaskDueAt: null });

    // Erasing the lead takes its activities with it.
    await createLeadAdmin({ db: db(), notify: false }).remove(id, alice, null);
    expect(await db().selectFrom("leadActivities").selectAll().execute()).toEqual([]);
  });

  it("lets a rep change only a task assigned to them or that they added; tasks.team anyone's", async () => {
    const rita = await createUser(db(), { username: "rita", password: "Rita-Password-001", role: "sales" });
    const sid = await createUser(db(), { username: "sid", password: "Sid-Password-0001", role: "sales" });
    const id = await addLead();
    const add = async (body: string, author: PublicUser, assignee: PublicUser) =>
      (await addActivity(db(), id, task(body, "2026-12-03T09:00:00Z", assignee.id), author, NOW))?.id ?? 0;
    const forRita = await add("For Rita", alice, rita);
    const ritasForSid = await add("Rita's for Sid", rita, sid);
    const alicesOwn = await add("Alice's own", alice, alice);
    const sidsOwn = await add("Sid's own", sid, sid);
    const row = (taskId: number) =>
      db()
        .selectFrom("leadActivities")
        .select(["body", "dueAt", "assigneeUserId", "doneAt", "doneByUsername"])
        .where("id", "=", taskId)
        .executeTakeFirstOrThrow();

    // Assigned to her, or added by her: hers to change (done, what, due, to whom).
    await expect(updateTask(db(), forRita, { done: true }, rita, NOW)).resolves.toMatchObject({
      doneBy: "rita",
    });
    await expect(
      updateTask(db(), ritasForSid, { body: "Rita's for Sid, reworded", assigneeId: rita.id }, rita, NOW),
    ).resolves.toMatchObject({ body: "Rita's for Sid, reworded", assigneeId: rita.id });
    // An admin's task and a colleague's: refused, whatever the change, and nothing changes.
    for (const [taskId, patch] of [
      [alicesOwn, { done: true }],
      [alicesOwn, { body: "Taken over" }],
      [sidsOwn, { dueAt: "2027-01-01T09:00:00.000Z" }],
      [sidsOwn, { assigneeId: rita.id }],
    ] as const) {
      const before = await row(taskId);
      await expect(updateTask(db(), taskId, patch, rita, NOW)).rejects.toBeInstanceOf(TaskNotYoursError);
      expect(await row(taskId)).toEqual(before);
    }
    // An unknown task is still unknown (404), not refused.
    expect(await updateTask(db(), 999_999, { done: true }, rita, NOW)).toBeUndefined();
    // tasks.team (an admin): anyone's.
    await expect(updateTask(db(), sidsOwn, { done: true }, alice, NOW)).resolves.toMatchObject({
      doneBy: "alice",
    });
    const done = ((await leadDetail(db(), id))?.timeline ?? []).filter((entry) => entry.kind === "task_done");
    expect(done.map((entry) => [entry.actor, "text" in entry ? entry.text : ""])).toEqual([
      ["alice", "Sid's own"],
      ["rita", "For Rita"],
    ]);
  });

  it("records a change of a task's words, due time or assignee on the timeline, only what changed", async () => {
    const sam = await createUser(db(), { username: "sam", password: "Sam-Password-0001", role: "sales" });
    const rita = await createUser(db(), { username: "rita", password: "Rita-Password-001", role: "sales" });
    const id = await addLead();
    const taskId =
      (await addActivity(db(), id, task("Call about pricing", "2026-12-03T09:00:00Z", sam.id), rita, NOW))
        ?.id ?? 0;
    const changes = async () =>
      ((await leadDetail(db(), id))?.timeline ?? []).filter((entry) => entry.kind === "task_changed");
    const stored = () =>
      db()
        .selectFrom("leadEvents")
        .select(["type", "actorUserId", "actorName", "detail", "createdAt"])
        .where("leadId", "=", id)
        .where("type", "=", "task_changed")
        .orderBy("id")
        .execute()
        .then((rows) => rows.map((row) => ({ ...row, detail: JSON.parse(row.detail ?? "null") })));

    // Each field alone: one event each, who, when, from and to.
    await updateTask(
      db(),
      taskId,
      TaskPatchSchema.parse({ dueAt: "2026-12-04T09:00:00Z" }),
      rita,
      at("2026-12-01T11:00:00Z"),
    );
    await updateTask(
      db(),
      taskId,
      TaskPatchSchema.parse({ assigneeId: rita.id }),
      rita,
      at("2026-12-01T11:01:00Z"),
    );
    await updateTask(
      db(),
      taskId,
      TaskPatchSchema.parse({ body: "Call about the pilot" }),
      rita,
      at("2026-12-01T11:02:00Z"),
    );
    expect(await stored()).toEqual([
      {
        type: "task_changed",
        actorUserId: rita.id,
        actorName: "rita",
        detail: {
          taskId,
          text: "Call about pricing",
          changes: [{ field: "due", from: "2026-12-03T09:00:00.000Z", to: "2026-12-04T09:00:00.000Z" }],
        },
        createdAt: "2026-12-01T11:00:00.000Z",
      },
      expect.objectContaining({ createdAt: "2026-12-01T11:01:00.000Z" }),
      expect.objectContaining({ createdAt: "2026-12-01T11:02:00.000Z" }),
    ]);
    expect(await changes()).toMatchObject([
      {
        kind: "task_changed",
        actor: "rita",
        taskId,
        text: "Call about the pilot",
        changes: [{ field: "text", from: "Call about pricing", to: "Call about the pilot" }],
      },
      {
        actor: "rita",
        text: "Call about pricing",
        changes: [{ field: "assignee", from: "sam", to: "rita" }],
      },
      {
        at: "2026-12-01T11:00:00.000Z",
        changes: [{ field: "due", from: "2026-12-03T09:00:00.000Z", to: "2026-12-04T09:00:00.000Z" }],
      },
    ]);

    // The same values again (an instant in another spelling too), or only done: nothing new.
    for (const patch of [
      { body: "Call about the pilot", dueAt: "2026-12-04T10:00:00+01:00", assigneeId: rita.id },
      { done: true },
      { done: false },
    ])
      await updateTask(db(), taskId, TaskPatchSchema.parse(patch), rita, NOW);
    expect(await stored()).toHaveLength(3);

    // Several at once, with a field unchanged: one event naming only the ones that changed.
    await updateTask(
      db(),
      taskId,
      TaskPatchSchema.parse({
        body: "Call about the pilot",
        dueAt: "2026-12-07T09:00:00Z",
        assigneeId: sam.id,
      }),
      alice,
      at("2026-12-01T12:00:00Z"),
    );
    expect((await changes())[0]).toMatchObject({
      actor: "alice",
      text: "Call about the pilot",
      changes: [
        { field: "due", from: "2026-12-04T09:00:00.000Z", to: "2026-12-07T09:00:00.000Z" },
        { field: "assignee", from: "rita", to: "sam" },
      ],
    });
    expect(await stored()).toHaveLength(4);
    // A refused change records nothing either.
    const sid = await createUser(db(), { username: "sid", password: "Sid-Password-0001", role: "sales" });
    await expect(
      updateTask(db(), taskId, TaskPatchSchema.parse({ dueAt: "2027-01-01T09:00:00Z" }), sid, NOW),
    ).rejects.toBeInstanceOf(TaskNotYoursError);
    expect(await stored()).toHaveLength(4);
  });

  it("holds the lead's next step to its task's rule, keeps the task's author and records whose it was", async () => {
    const rita = await createUser(db(), { username: "rita", password: "Rita-Password-001", role: "sales" });
    const sid = await createUser(db(), { username: "sid", password: "Sid-Password-0001", role: "sales" });
    const id = await addLead();
    const alicesOwn = await addActivity(
      db(),
      id,
      task("Alice's own call", "2026-12-02T09:00:00Z"),
      alice,
      NOW,
    );
    const eventCount = async () =>
      (await db().selectFrom("leadEvents").select("id").where("leadId", "=", id).execute()).length;
    const events = await eventCount();

    // The next step is Alice's (an admin's) task: Rita may neither rewrite it nor mark it done.
    await expect(
      setNextStep(db(), id, { body: "Rita's words", dueOn: "2026-12-09" }, rita, NOW),
    ).rejects.toBeInstanceOf(TaskNotYoursError);
    await expect(clearNextStep(db(), id, rita, NOW)).rejects.toBeInstanceOf(TaskNotYoursError);
    expect((await nextStepsOf(db(), [id])).get(id)).toMatchObject({
      taskId: alicesOwn?.id,
      body: "Alice's own call",
      dueAt: "2026-12-02T09:00:00.000Z",
      author: "alice",
      assignee: "alice",
    });
    expect(await eventCount()).toBe(events);

    // Sid adds an earlier one for Rita: it is hers to rewrite; Sid stays its author.
    const forRita = await addActivity(
      db(),
      id,
      task("Call Rita's lead", "2026-12-01T16:00:00Z", rita.id),
      sid,
      NOW,
    );
    const later = at("2026-12-01T12:00:00Z");
    expect(
      await setNextStep(db(), id, { body: "Call about the tender", dueOn: "2026-12-01" }, rita, later),
    ).toBe(true);
    expect((await nextStepsOf(db(), [id])).get(id)).toMatchObject({
      taskId: forRita?.id,
      body: "Call about the tender",
      dueAt: "2026-12-01T23:59:59.999Z",
      assigneeId: rita.id,
      author: "sid",
      authorId: sid.id,
      setAt: later.toISOString(),
    });
    // An admin rewrites Rita's next step and marks it done: the timeline names the task and whose it was.
    await setNextStep(db(), id, { body: "Send the tender pack", dueOn: "2026-12-01" }, alice, later);
    expect(await clearNextStep(db(), id, alice, later)).toBe(true);
    const timeline = (await leadDetail(db(), id))?.timeline ?? [];
    expect(timeline.slice(0, 3)).toMatchObject([
      {
        kind: "next_step_cleared",
        actor: "alice",
        text: "Send the tender pack",
        taskId: forRita?.id,
        assignee: "rita",
      },
      {
        kind: "next_step_set",
        actor: "alice",
        text: "Send the tender pack",
        taskId: forRita?.id,
        assignee: "rita",
      },
      {
        kind: "next_step_set",
        actor: "rita",
        text: "Call about the tender",
        taskId: forRita?.id,
        assignee: "rita",
      },
    ]);
    // Alice's own task is the next step again; still nobody else's to change.
    expect(await leadRowOf(id)).toMatchObject({ nextTaskId: alicesOwn?.id });
    await expect(clearNextStep(db(), id, sid, later)).rejects.toBeInstanceOf(TaskNotYoursError);
    // A lead with no open task: anyone who works it sets one (assigned to its owner, else to them).
    const fresh = await addLead("Fresh Lead");
    expect(await setNextStep(db(), fresh, { body: "First call", dueOn: "2026-12-02" }, sid, NOW)).toBe(true);
    expect((await nextStepsOf(db(), [fresh])).get(fresh)).toMatchObject({ author: "sid", assignee: "sid" });
  });

  it("lists a person's open tasks by due, their done ones latest first, and what is due by tonight", async () => {
    const one = await addLead("One Lead");
    const two = await addLead("Two Lead");
    await addActivity(db(), one, task("Overdue one", "2026-11-30T09:00:00Z"), alice, NOW);
    await addActivity(db(), two, task("Today one", "2026-12-01T16:00:00Z"), alice, NOW);
    await addActivity(db(), two, task("Next week", "2026-12-08T09:00:00Z"), alice, NOW);
    const bobs = await addActivity(db(), one, task("Bob's", "2026-12-01T12:00:00Z", bob.id), alice, NOW);
    await updateTask(db(), bobs?.id ?? 0, { done: true }, bob, NOW);

    const open = await listTasks(db(), { assigneeId: alice.id, state: "open" });
    expect(open.map((each) => [each.body, each.leadName])).toEqual([
      ["Overdue one", "One Lead"],
      ["Today one", "Two Lead"],
      ["Next week", "Two Lead"],
    ]);
    expect((await listTasks(db(), { state: "open" })).length).toBe(3);
    expect((await listTasks(db(), { assigneeId: bob.id, state: "done" })).map((each) => each.body)).toEqual([
      "Bob's",
    ]);
    expect((await dueTasksFor(db(), alice.id, NOW, "UTC")).map((each) => each.body)).toEqual([
      "Overdue one",
      "Today one",
    ]);
    // In Tokyo, 10:00 UTC is already 19:00: "today" there ends at 15:00 UTC, before 16:00.
    expect((await dueTasksFor(db(), alice.id, NOW, "Asia/Tokyo")).map((each) => each.body)).toEqual([
      "Overdue one",
    ]);
  });

  it("pages open tasks by keyset: each once, in due-then-id order, across equal due times", async () => {
    const leads = [await addLead("Page One"), await addLead("Page Two"), await addLead("Page Three")];
    // Three due times, taken in turn, so each run of equal due times holds ids far apart and the
    // pages of 4 end inside the runs. Bob's tasks and a done one of Alice's sit among them.
    const dues = ["2026-12-03T09:00:00.000Z", "2026-11-30T09:00:00.000Z", "2026-12-01T16:00:00.000Z"];
    const mine: { id: number; dueAt: string }[] = [];
    for (let index = 0; index < 17; index++) {
      const dueAt = dues[index % 3] ?? "";
      const added = await addActivity(db(), leads[index % 3] ?? 0, task(`Task ${index}`, dueAt), alice, NOW);
      mine.push({ id: added?.id ?? 0, dueAt });
      if (index % 5 === 0)
        await addActivity(db(), leads[0] ?? 0, task(`Bob ${index}`, dueAt, bob.id), alice, NOW);
    }
    const doneOne = await addActivity(db(), leads[1] ?? 0, task("Done already", dues[1] ?? ""), alice, NOW);
    await updateTask(db(), doneOne?.id ?? 0, { done: true }, alice, NOW);
    const order = (tasks: { id: number; dueAt: string }[]) =>
      tasks
        .toSorted((a, b) => (a.dueAt < b.dueAt ? -1 : a.dueAt > b.dueAt ? 1 : a.id - b.id))
        .map((each) => each.id);
    const expected = order(mine);
    const tonight = endOfDay(NOW, "UTC");
    const count = (upTo: TaskCursor | null) =>
      countOpenTasks(db(), { assigneeId: alice.id, now: NOW.toISOString(), tonight, upTo });

    const walk = async (assigneeId: number | undefined, limit: number) => {
      const seen: number[] = [];
      const positions: number[] = [];
      let after: TaskCursor | null = null;
      for (let pages = 0; pages < 50; pages++) {
        const page = await pageTasks(db(), { assigneeId, state: "open", after, limit });
        expect(page.tasks.length).toBeLessThanOrEqual(limit);
        seen.push(...page.tasks.map((each) => each.id));
        if (!page.next) break;
        expect(page.tasks.length).toBe(limit);
        // The cursor survives the URL: the same page comes back from its text.
        expect(parseKeysetCursor(formatKeysetCursor(page.next))).toEqual(page.next);
        if (assigneeId !== undefined) positions.push((await count(page.next)).upTo);
        after = page.next;
      }
      return { seen, positions };
    };
    const { seen, positions } = await walk(alice.id, 4);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(17);
    // The counts say where each page starts: 4, 8, 12, 16 tasks before the next.
    expect(positions).toEqual([4, 8, 12, 16]);
    expect(await count(null)).toEqual({ total: 17, overdue: 6, today: 5, upTo: 0, capped: false });
    // A page size of 1 and one of all: the same order.
    expect((await walk(alice.id, 1)).seen).toEqual(expected);
    expect((await walk(alice.id, 200)).seen).toEqual(expected);
    expect((await listTasks(db(), { assigneeId: alice.id, state: "open" })).map((each) => each.id)).toEqual(
      expected,
    );
    // Everyone's: Alice's and Bob's in one order.
    const bobs = await listTasks(db(), { assigneeId: bob.id, state: "open" });
    expect((await walk(undefined, 3)).seen).toEqual(order([...mine, ...bobs]));

    // Work done between pages skips nothing: the first page's last task (the cursor itself) and its
    // first are marked done, a task due before the cursor is added (a page already passed), one
    // after it too; the next pages hold exactly the rest, in order.
    const first = await pageTasks(db(), { assigneeId: alice.id, state: "open", limit: 4 });
    const cursor = first.next as TaskCursor;
    await updateTask(db(), first.tasks[3]?.id ?? 0, { done: true }, alice, NOW);
    await updateTask(db(), first.tasks[0]?.id ?? 0, { done: true }, alice, NOW);
    await addActivity(db(), leads[2] ?? 0, task("Earlier, new", "2026-11-29T09:00:00Z"), alice, NOW);
    const later = await addActivity(
      db(),
      leads[2] ?? 0,
      task("Later, new", "2026-12-20T09:00:00Z"),
      alice,
      NOW,
    );
    const rest: number[] = [];
    let after: TaskCursor | null = cursor;
    while (after) {
      const page: Awaited<ReturnType<typeof pageTasks>> = await pageTasks(db(), {
        assigneeId: alice.id,
        state: "open",
        after,
        limit: 4,
      });
      rest.push(...page.tasks.map((each) => each.id));
      after = page.next;
    }
    expect(rest).toEqual([...expected.slice(4), later?.id]);
    // Where the cursor lies now: two of the first four are done, one earlier task was added.
    expect((await count(cursor)).upTo).toBe(3);
    expect((await count(null)).total).toBe(17);
    // Over a cap of 10 the count stops: the total and the last section it reached are lower bounds.
    expect(
      await countOpenTasks(db(), { assigneeId: alice.id, now: NOW.toISOString(), tonight, cap: 10 }),
    ).toEqual({ total: 11, overdue: 5, today: 5, upTo: 0, capped: true });
  });

  it("pages done tasks latest first by keyset, equal done times by id", async () => {
    const id = await addLead("Done Lead");
    const ids: number[] = [];
    for (let index = 0; index < 7; index++)
      ids.push(
        (await addActivity(db(), id, task(`Done ${index}`, "2026-12-02T09:00:00Z"), alice, NOW))?.id ?? 0,
      );
    // Three done at one instant, four at a later one, not in id order.
    const early = at("2026-12-01T11:00:00.000Z");
    const late = at("2026-12-01T12:00:00.000Z");
    for (const [index, taskId] of ids.entries())
      await updateTask(db(), taskId, { done: true }, alice, index % 2 === 0 ? late : early);
    const expected = [
      ...ids.filter((_, index) => index % 2 === 0).toReversed(),
      ...ids.filter((_, index) => index % 2 === 1).toReversed(),
    ];
    const seen: number[] = [];
    let after: TaskCursor | null = null;
    do {
      const page: Awaited<ReturnType<typeof pageTasks>> = await pageTasks(db(), {
        assigneeId: alice.id,
        state: "done",
        after,
        limit: 3,
      });
      seen.push(...page.tasks.map((each) => each.id));
      after = page.next;
    } while (after);
    expect(seen).toEqual(expected);
    expect(await pageTasks(db(), { assigneeId: bob.id, state: "done" })).toEqual({ tasks: [], next: null });
  });

  it("reads My tasks and the list's Next step order through migration 037's indexes", async () => {
    const explain = async (query: string) => {
      if (use().dialect === "postgres") return "";
      const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(db());
      return rows.map((row) => row.detail).join("; ");
    };
    if (use().dialect === "postgres") return;
    await expect(
      explain(`select lead_activities.id from lead_activities
        inner join leads on leads.id = lead_activities.lead_id
        where leads.anonymised_at is null and lead_activities.assignee_user_id = 1
          and lead_activities.kind = 'task' and lead_activities.done_at is null
        order by lead_activities.due_at, lead_activities.id limit 200`),
    ).resolves.toContain("lead_activities_open_mine_idx");
    // A later page starts inside the index (a range on due_at), not at its first entry.
    const page = await explain(`select lead_activities.id from lead_activities
        inner join leads on leads.id = lead_activities.lead_id
        where leads.anonymised_at is null and lead_activities.assignee_user_id = 1
          and lead_activities.kind = 'task' and lead_activities.done_at is null
          and lead_activities.due_at >= '2026-12-01T00:00:00.000Z'
          and (lead_activities.due_at > '2026-12-01T00:00:00.000Z' or lead_activities.id > 5)
        order by lead_activities.due_at, lead_activities.id limit 101`);
    expect(page).toMatch(/lead_activities_open_mine_idx \(assignee_user_id=\? AND due_at>\?\)/);
    expect(page).not.toContain("TEMP B-TREE");
    await expect(
      explain(`select id from leads where is_spam = 0 and anonymised_at is null
        order by (coalesce(next_task_due_at, '~')) asc, leads.id asc limit 10`),
    ).resolves.toContain("leads_next_task_asc_idx");
  });

  it("queues the morning e-mail once per person per day, at 07:00 in their zone, even when sweeps race", async () => {
    const id = await addLead("<b>Evil</b> & Co");
    await addActivity(db(), id, task("Call <script>x</script>", "2026-12-01T16:00:00Z"), alice, NOW);
    await addActivity(db(), id, task("Bob's only", "2026-12-01T16:00:00Z", bob.id), alice, NOW);
    await db().updateTable("users").set({ email: "alice@example.com" }).where("id", "=", alice.id).execute();
    await chooseTaskDigest(db(), alice.id, true);
    // Bob has tasks but did not choose the e-mail.
    const zones = async (ids: readonly number[]) => new Map(ids.map((each) => [each, "Europe/London"]));
    const digests = () =>
      db().selectFrom("outbox").select("payload").where("kind", "=", TASK_DIGEST_EMAIL).execute();

    expect(await queueTaskDigests(db(), { now: at("2026-12-01T06:59:00Z"), timeZonesOf: zones })).toBe(0);
    const racing = await Promise.all(
      Array.from({ length: 3 }, () =>
        queueTaskDigests(db(), { now: at("2026-12-01T07:01:00Z"), timeZonesOf: zones }),
      ),
    );
    expect(racing.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect((await digests()).map((row) => JSON.parse(row.payload))).toEqual([
      { userId: alice.id, day: "2026-12-01" },
    ]);
    expect(await queueTaskDigests(db(), { now: at("2026-12-01T15:00:00Z"), timeZonesOf: zones })).toBe(0);
    // The next morning: again (the task is overdue by then).
    expect(await queueTaskDigests(db(), { now: at("2026-12-02T07:00:00Z"), timeZonesOf: zones })).toBe(1);
    // Turned off: no more.
    await chooseTaskDigest(db(), alice.id, false);
    expect(await queueTaskDigests(db(), { now: at("2026-12-03T07:00:00Z"), timeZonesOf: zones })).toBe(0);
    expect((await digests()).length).toBe(2);

    const tasks = await dueTasksFor(db(), alice.id, at("2026-12-01T07:01:00Z"), "Europe/London");
    const mail = composeTaskDigest(
      { username: "alice", email: "alice@example.com" },
      tasks,
      { zone: "Europe/London", now: at("2026-12-01T07:01:00Z"), day: "2026-12-01", outboxId: 1 },
      { from: "noreply@example.com", publicUrl: "https://example.com/" },
    );
    expect(mail.subject).toBe("Your tasks today: 1 due today");
    expect(mail.text).toContain("- Call <script>x</script> — <b>Evil</b> & Co, due");
    expect(mail.text).toContain("https://example.com/admin/tasks");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b>Evil");
    expect(mail.html).toContain("&#60;script&#62;");
  });

  it("gives the morning e-mail to no one whose role no longer has tasks, when queueing and when sending", async () => {
    const id = await addLead("Priya Ashdown");
    await addActivity(
      db(),
      id,
      task("Call Priya about the retention clause", "2026-12-01T16:00:00Z"),
      alice,
      NOW,
    );
    await db().updateTable("users").set({ email: "alice@example.com" }).where("id", "=", alice.id).execute();
    await chooseTaskDigest(db(), alice.id, true);
    const zones = async (ids: readonly number[]) => new Map(ids.map((each) => [each, "Europe/London"]));
    const roleOf = (role: "sales" | "marketing") =>
      db()
        .updateTable("users")
        .set({ role, isAdmin: role === "sales" ? 1 : 0 })
        .where("id", "=", alice.id)
        .execute();
    const morning = at("2026-12-01T07:01:00Z");

    // Moved to marketing (leads as counts only): nothing is queued, and the day is not used up.
    await roleOf("marketing");
    expect(await queueTaskDigests(db(), { now: morning, timeZonesOf: zones })).toBe(0);
    await roleOf("sales");
    expect(await queueTaskDigests(db(), { now: morning, timeZonesOf: zones })).toBe(1);
    const queued = await db()
      .selectFrom("outbox")
      .select(["id", "kind", "payload"])
      .where("kind", "=", TASK_DIGEST_EMAIL)
      .executeTakeFirstOrThrow();

    // Moved between queueing and sending: the sender reads the role then and sends nothing.
    const sent: { subject: string; text: string }[] = [];
    const send = createTaskDigestSender({
      db: db(),
      transport: { sendMail: async (mail: { subject: string; text: string }) => void sent.push(mail) },
      settings: { from: "noreply@example.com" },
      timeZonesOf: zones,
      now: () => morning,
    });
    const message = {
      id: Number(queued.id),
      kind: queued.kind,
      payload: JSON.parse(queued.payload),
      attempts: 0,
    };
    await roleOf("marketing");
    await send(message);
    expect(sent).toEqual([]);
    await roleOf("sales");
    await send(message);
    expect(sent.map((mail) => mail.text)).toEqual([
      expect.stringContaining("Call Priya about the retention clause"),
    ]);
  });
});

// Migration 037 on a database that had next steps (migration 023): each becomes an open task, the
// lead's next step, assigned to its owner (or whoever set it), due at the end of its day.

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`migration 037 on existing next steps [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    if (!available) return;
    it("turns each next step into its lead's earliest open task", async () => {
      await withDatabaseBefore(kind, "037", async (database) => {
        const db = database.db;
        const owner = await createUser(db, {
          username: "owner",
          password: "Owner-Password-01",
          isAdmin: true,
        });
        const setter = await createUser(db, {
          username: "setter",
          password: "Setter-Password-1",
          isAdmin: true,
        });
        const ids: number[] = [];
        for (const ownerId of [owner.id, null, null]) {
          const row = await db
            .insertInto("leads")
            .values({ ...leadRow({ email: `m${ids.length}@example.com` }), ownerId })
            .returning("id")
            .executeTakeFirstOrThrow();
          ids.push(Number(row.id));
        }
        for (const [index, leadId] of ids.slice(0, 2).entries())
          await sql`insert into lead_next_steps (lead_id, body, due_on, set_by_user_id, set_by_username, set_at)
            values (${leadId}, ${`Step ${index}`}, ${`2026-11-2${index}`}, ${setter.id}, 'setter', '2026-11-19T10:00:00.000Z')`.execute(
            db,
          );
        await migrateToLatest(db);
        const tasks = await db
          .selectFrom("leadActivities")
          .select(["leadId", "kind", "body", "dueAt", "assigneeUserId", "doneAt", "authorUsername"])
          .orderBy("leadId")
          .execute();
        expect(
          tasks.map((row) => ({
            ...row,
            leadId: Number(row.leadId),
            assigneeUserId: Number(row.assigneeUserId),
          })),
        ).toEqual([
          {
            leadId: ids[0],
            kind: "task",
            body: "Step 0",
            dueAt: "2026-11-20T23:59:59.999Z",
            assigneeUserId: owner.id,
            doneAt: null,
            authorUsername: "setter",
          },
          {
            leadId: ids[1],
            kind: "task",
            body: "Step 1",
            dueAt: "2026-11-21T23:59:59.999Z",
            assigneeUserId: setter.id,
            doneAt: null,
            authorUsername: "setter",
          },
        ]);
        const next = await nextStepsOf(db, ids);
        expect([...next.entries()].map(([leadId, step]) => [leadId, step.body, step.dueOn])).toEqual([
          [ids[0], "Step 0", "2026-11-20"],
          [ids[1], "Step 1", "2026-11-21"],
        ]);
        const leads = await db.selectFrom("leads").select(["id", "nextTaskDueAt"]).orderBy("id").execute();
        expect(leads.map((row) => row.nextTaskDueAt)).toEqual([
          "2026-11-20T23:59:59.999Z",
          "2026-11-21T23:59:59.999Z",
          null,
        ]);
      });
    });
  });
}

// Two "done" clicks at once (two tabs, two people) on PostgreSQL, where each statement takes its own
// row locks: the second must see the first's completion, so one task_done and the first's done_by.
// (SQLite runs one write transaction at a time: no race there.)
it("records a task done once when two mark it done at the same moment [postgres]", async () => {
  if (!(await checkPostgres())) return;
  const database = await createTestDatabase("postgres");
  try {
    const { db } = database;
    const lead = await db.insertInto("leads").values(leadRow()).returning("id").executeTakeFirstOrThrow();
    const leadId = Number(lead.id);
    const nadia = await createUser(db, { username: "nadia", password: "Nadia-Password-01", isAdmin: true });
    const omar = await createUser(db, { username: "omar", password: "Omar-Password-001", isAdmin: true });
    const added = await addActivity(
      db,
      leadId,
      { kind: "task", body: "Call back", dueAt: "2026-12-02T09:00:00.000Z" },
      nadia,
      NOW,
    );
    const taskId = added?.id ?? 0;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Someone else holds the lead (a note, the purge) while both clicks arrive.
    const holder = db.transaction().execute(async (trx) => {
      await trx.selectFrom("leads").select("id").where("id", "=", leadId).forUpdate().execute();
      await released;
    });
    const clicks = [
      updateTask(db, taskId, { done: true }, nadia, at("2026-12-01T11:00:00Z")),
      updateTask(db, taskId, { done: true }, omar, at("2026-12-01T11:00:01Z")),
    ];
    // Once both wait on the lead's lock, let it go.
    for (let tries = 0; tries < 200; tries++) {
      const waiting = await sql<{ count: string }>`select count(*) as count from pg_stat_activity
        where wait_event_type = 'Lock' and datname = current_database() and query ilike '%for update%'`.execute(
        db,
      );
      if (Number(waiting.rows[0]?.count ?? 0) >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    release();
    await holder;
    const [first, second] = await Promise.all(clicks);
    const doneBy = [first?.doneBy, second?.doneBy];
    // Whichever got the lead first completed it; the other found it done and changed nothing.
    expect(doneBy[0]).toBe(doneBy[1]);
    const events = await db
      .selectFrom("leadEvents")
      .select(["type", "actorName"])
      .where("leadId", "=", leadId)
      .where("type", "=", "task_done")
      .execute();
    expect(events).toEqual([{ type: "task_done", actorName: doneBy[0] }]);
  } finally {
    await database.dispose();
  }
});

describe("a task page's cursor", () => {
  it("reads only what a page's next is: a stored instant and a positive id", () => {
    expect(parseKeysetCursor("2026-12-03T08:00:00.000Z_123")).toEqual({
      at: "2026-12-03T08:00:00.000Z",
      id: 123,
    });
    expect(formatKeysetCursor({ at: "2026-12-03T08:00:00.000Z", id: 123 })).toBe(
      "2026-12-03T08:00:00.000Z_123",
    );
    for (const raw of [
      null,
      undefined,
      "",
      "123",
      "2026-12-03T08:00:00.000Z",
      "2026-12-03T08:00:00.000Z_",
      "2026-12-03T08:00:00Z_123",
      "2026-12-03T08:00:00.000+00:00_123",
      "2026-12-03 08:00:00.000Z_123",
      "2026-02-30T08:00:00.000Z_123",
      "2026-12-03T24:00:00.000Z_123",
      "2026-13-03T08:00:00.000Z_123",
      "2026-12-03T08:00:00.000Z_0",
      "2026-12-03T08:00:00.000Z_0123",
      "2026-12-03T08:00:00.000Z_-1",
      "2026-12-03T08:00:00.000Z_1e3",
      "2026-12-03T08:00:00.000Z_9999999999999999",
      "2026-12-03T08:00:00.000Z_9007199254740993",
      " 2026-12-03T08:00:00.000Z_123",
      "2026-12-03T08:00:00.000Z_123\n",
      "2026-12-03T08:00:00.000Z_123_4",
      "2026-12-03T08:00:00.000Z_123' or 1=1 --",
    ])
      expect(parseKeysetCursor(raw)).toBeNull();
  });
});
