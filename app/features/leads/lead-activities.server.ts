import { type Kysely, sql, type Transaction, type Updateable } from "kysely";
import { z } from "zod";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import type { KeysetCursor } from "#app/lib/keyset-cursor.ts";
import { can, type Role } from "#app/lib/permissions.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { addDays, dateIn, parseDate, toInstant } from "#app/lib/time-zones.ts";
import { NOTE_MAX_LENGTH } from "./lead-constants.ts";
import { type Actor, recordLeadEvent } from "./lead-events.server.ts";
import { NoteBodySchema } from "./lead-notes.server.ts";
import { CALL_MINUTES_MAX, CALL_OUTCOMES, EMAIL_DIRECTIONS, TASK_MAX } from "./ui/activity-words.ts";

// Issue 35 (ADR 041): what staff log on a lead besides notes: a call (outcome, minutes), an e-mail
// (direction) and a task (what, due instant, assignee; done or open). Rows of lead_activities; a
// task's adding, completion and reopening are also lead events, so the timeline says who and when.
// Every change of a lead's tasks rewrites leads.next_task_id / next_task_due_at (its earliest open
// task, the "next step") in the same transaction, so the list can sort by it with an index.

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

/** The partial indexes' predicate, written out (not bound) so both planners match it. */
const OPEN_TASK = sql<boolean>`lead_activities.kind = 'task' and lead_activities.done_at is null`;
const DONE_TASK = sql<boolean>`lead_activities.kind = 'task' and lead_activities.done_at is not null`;

const multiLine = (label: string) =>
  z
    .string({ error: `Please write the ${label}.` })
    .max(NOTE_MAX_LENGTH * 2)
    .refine(
      (value) => !breaksTextRule(value, "multi-line"),
      `The ${label} may not contain control characters.`,
    )
    .trim()
    .max(NOTE_MAX_LENGTH, `The ${label} may have at most ${NOTE_MAX_LENGTH} characters.`);

export const TaskBodySchema = z
  .string({ error: "Say what the task is." })
  .max(TASK_MAX * 2)
  .refine((value) => !breaksTextRule(value, "one-line"), "The task may not contain control characters.")
  .trim()
  .min(1, "Say what the task is.")
  .max(TASK_MAX, `A task may have at most ${TASK_MAX} characters.`);

const YEAR_2000 = Date.UTC(2000, 0, 1);
const YEAR_3000 = Date.UTC(3000, 0, 1);

/** An instant with its offset ("2026-12-03T09:00:00+01:00" or "...Z"), stored as UTC. */
export const DueAtSchema = z
  .string({ error: "Choose when the task is due." })
  .max(40)
  .pipe(z.iso.datetime({ offset: true, error: "Give the due time as an ISO 8601 date and time." }))
  .transform((value) => new Date(value))
  .refine(
    (date) => date.getTime() >= YEAR_2000 && date.getTime() < YEAR_3000,
    "Choose a due date this millennium.",
  )
  .transform((date) => date.toISOString());

const assigneeId = z.number().int().positive().max(2_147_483_647);

/** `POST /api/admin/leads/:id/activities` and the composer's forms (after their fields are read). */
export const ActivityInputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("note"), body: NoteBodySchema }),
  z.object({
    kind: z.literal("call"),
    body: multiLine("call notes").optional().default(""),
    outcome: z.enum(CALL_OUTCOMES, { error: "Choose how the call went." }),
    durationMinutes: z
      .number({ error: "Give the call's length in minutes." })
      .int("Give the call's length in whole minutes.")
      .min(0, "A call cannot last less than no time.")
      .max(CALL_MINUTES_MAX, `A call may last at most ${CALL_MINUTES_MAX} minutes.`)
      .optional(),
  }),
  z.object({
    kind: z.literal("email"),
    body: multiLine("e-mail's summary").pipe(z.string().min(1, "Please write what the e-mail said.")),
    direction: z.enum(EMAIL_DIRECTIONS, { error: "Choose sent or received." }).optional(),
  }),
  z.object({
    kind: z.literal("task"),
    body: TaskBodySchema,
    dueAt: DueAtSchema,
    assigneeId: assigneeId.optional(),
  }),
]);
export type ActivityInput = z.infer<typeof ActivityInputSchema>;

/** `PATCH /api/admin/tasks/:id`: any of these. */
export const TaskPatchSchema = z
  .object({
    done: z.boolean().optional(),
    body: TaskBodySchema.optional(),
    dueAt: DueAtSchema.optional(),
    assigneeId: assigneeId.optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, "Send done, body, dueAt or assigneeId.");
export type TaskPatch = z.infer<typeof TaskPatchSchema>;

export type Activity = {
  id: number;
  leadId: number;
  kind: "call" | "email" | "task";
  body: string;
  outcome: string | null;
  durationMinutes: number | null;
  direction: string | null;
  dueAt: string | null;
  assigneeId: number | null;
  doneAt: string | null;
  author: string;
  createdAt: string;
};

export type Task = {
  id: number;
  leadId: number;
  leadName: string;
  body: string;
  dueAt: string;
  assigneeId: number | null;
  assignee: string | null;
  doneAt: string | null;
  doneBy: string | null;
  author: string;
  createdAt: string;
};

export class UnknownAssigneeError extends Error {
  constructor() {
    super("Choose someone who works on leads.");
  }
}

/** Whoever changes a task; their role says whether they may change anyone's (tasks.team). */
export type TaskEditor = Actor & { role: Role | null };

/** A change of someone else's task by a person who may change only their own (answered 403). */
export class TaskNotYoursError extends Error {
  constructor() {
    super("Only the person this task is assigned to, whoever added it, or an admin may change it.");
  }
}

/**
 * Who may change a task (done, open again, what, due, assignee): the person it is assigned to,
 * whoever added it, and anyone with tasks.team. `tasks.own` alone is not enough: a rep may not
 * complete, reword, move or hand on a colleague's or an admin's task (ADR 041).
 */
export function mayChangeTask(
  editor: TaskEditor,
  task: { assigneeId: number | null; authorId: number | null },
): boolean {
  return can(editor.role, "tasks.team") || task.assigneeId === editor.id || task.authorId === editor.id;
}

/** The lead, held (PostgreSQL) until the change is in, so the retention purge cannot clear it in between. */
async function readLiveLead(trx: Trx, leadId: number) {
  let read = trx
    .selectFrom("leads")
    .select(["id", "ownerId"])
    .where("id", "=", leadId)
    .where("anonymisedAt", "is", null);
  if (isPostgres(trx)) read = read.forUpdate();
  return read.executeTakeFirst();
}

async function checkAssignee(trx: Trx, id: number): Promise<string> {
  const user = await trx
    .selectFrom("users")
    .select("username")
    .where("id", "=", id)
    .where("isAdmin", "=", 1)
    .where("disabled", "=", 0)
    .executeTakeFirst();
  if (!user) throw new UnknownAssigneeError();
  return user.username;
}

/** Whoever `id` names (disabled ones too), for a timeline entry; null for nobody. */
async function usernameOf(trx: Trx, id: number | null): Promise<string | null> {
  if (id === null) return null;
  const user = await trx.selectFrom("users").select("username").where("id", "=", id).executeTakeFirst();
  return user?.username ?? null;
}

/**
 * Writes the lead's earliest open task (its next step) onto the lead, in the caller's transaction:
 * every change of a lead's tasks calls it, so `leads.next_task_*` never disagrees with the tasks.
 */
export async function refreshNextTask(trx: Trx, leadId: number, now: Date): Promise<void> {
  const next = await trx
    .selectFrom("leadActivities")
    .select(["id", "dueAt"])
    .where("leadId", "=", leadId)
    .where(OPEN_TASK)
    .orderBy("dueAt")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  await trx
    .updateTable("leads")
    .set({
      nextTaskId: next ? Number(next.id) : null,
      nextTaskDueAt: next?.dueAt ?? null,
      updatedAt: now.toISOString(),
    })
    .where("id", "=", leadId)
    .execute();
}

/**
 * Logs a call or an e-mail, or adds a task (assigned to `actor` unless another is named), on a live
 * lead; undefined when there is none. Throws UnknownAssigneeError for an assignee who cannot work leads.
 */
export async function addActivity(
  db: Db,
  leadId: number,
  input: Exclude<ActivityInput, { kind: "note" }>,
  actor: Actor,
  now = new Date(),
): Promise<Activity | undefined> {
  return db.transaction().execute(async (trx) => {
    if (!(await readLiveLead(trx, leadId))) return undefined;
    const at = now.toISOString();
    const base = {
      leadId,
      kind: input.kind,
      body: input.body,
      outcome: null as string | null,
      durationMinutes: null as number | null,
      direction: null as string | null,
      dueAt: null as string | null,
      assigneeUserId: null as number | null,
      doneAt: null,
      doneByUsername: null,
      authorUserId: actor.id,
      authorUsername: actor.username,
      createdAt: at,
      updatedAt: at,
    };
    let assignee: string | null = null;
    if (input.kind === "call") {
      base.outcome = input.outcome;
      base.durationMinutes = input.durationMinutes ?? null;
    } else if (input.kind === "email") base.direction = input.direction ?? null;
    else {
      base.dueAt = input.dueAt;
      base.assigneeUserId = input.assigneeId ?? actor.id;
      assignee = await checkAssignee(trx, base.assigneeUserId);
    }
    const row = await trx.insertInto("leadActivities").values(base).returning("id").executeTakeFirstOrThrow();
    const id = Number(row.id);
    if (input.kind === "task") {
      await recordLeadEvent(trx, {
        leadId,
        type: "task_added",
        actor,
        detail: { taskId: id, text: input.body, due: input.dueAt, assignee },
        now,
      });
      await refreshNextTask(trx, leadId, now);
    } else await trx.updateTable("leads").set({ updatedAt: at }).where("id", "=", leadId).execute();
    return {
      id,
      leadId,
      kind: input.kind,
      body: base.body,
      outcome: base.outcome,
      durationMinutes: base.durationMinutes,
      direction: base.direction,
      dueAt: base.dueAt,
      assigneeId: base.assigneeUserId,
      doneAt: null,
      author: actor.username,
      createdAt: at,
    };
  });
}

/** The calls and e-mails logged on a lead (its tasks come through their events), oldest first. */
export async function loggedActivitiesOf(db: Db, leadId: number) {
  return db
    .selectFrom("leadActivities")
    .select(["id", "kind", "body", "outcome", "durationMinutes", "direction", "authorUsername", "createdAt"])
    .where("leadId", "=", leadId)
    .where("kind", "in", ["call", "email"])
    .orderBy("id")
    .execute();
}

function selectTasks(db: Db | Trx) {
  return db
    .selectFrom("leadActivities")
    .innerJoin("leads", "leads.id", "leadActivities.leadId")
    .leftJoin("users", "users.id", "leadActivities.assigneeUserId")
    .select([
      "leadActivities.id",
      "leadActivities.leadId",
      "leads.fullName as leadName",
      "leadActivities.body",
      "leadActivities.dueAt",
      "leadActivities.assigneeUserId",
      "users.username as assignee",
      "leadActivities.doneAt",
      "leadActivities.doneByUsername",
      "leadActivities.authorUsername",
      "leadActivities.createdAt",
    ])
    .where("leads.anonymisedAt", "is", null);
}

type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTasks>["execute"]>>[number];

function toTask(row: TaskRow): Task {
  return {
    id: Number(row.id),
    leadId: Number(row.leadId),
    leadName: row.leadName,
    body: row.body,
    dueAt: row.dueAt ?? "",
    assigneeId: row.assigneeUserId === null ? null : Number(row.assigneeUserId),
    assignee: row.assignee ?? null,
    doneAt: row.doneAt,
    doneBy: row.doneByUsername,
    author: row.authorUsername,
    createdAt: row.createdAt,
  };
}

export async function findTask(db: Db | Trx, id: number): Promise<Task | undefined> {
  const row = await selectTasks(db)
    .where("leadActivities.id", "=", id)
    .where("leadActivities.kind", "=", "task")
    .executeTakeFirst();
  return row ? toTask(row) : undefined;
}

/** How many open tasks the task views show at most (the earliest due); done ones: the latest. */
export const TASK_LIST_LIMIT = 200;
export const DONE_LIST_LIMIT = 20;

/**
 * Where a page of tasks ends, so the next starts just after it in the list's order: the last task's
 * sort key (an open task's due time, a done one's done time) and its id, which breaks ties.
 */
export type TaskCursor = KeysetCursor;

export type TaskPage = { tasks: Task[]; next: TaskCursor | null };

/**
 * A page of tasks, of one assignee or everyone's (`assigneeId` undefined): open ones earliest due
 * first, done ones latest first, each order finished by id; from just after `after` (the first page
 * when null). Keyset, not offset: each page walks one partial index from the cursor and stops after
 * `limit` + 1 rows, so page 50 costs what page 1 does, and a task done meanwhile shifts nothing.
 * `next` is where the following page starts, null on the last.
 */
export async function pageTasks(
  db: Db,
  {
    assigneeId,
    state,
    after = null,
    limit,
  }: { assigneeId?: number; state: "open" | "done"; after?: TaskCursor | null; limit?: number },
): Promise<TaskPage> {
  const size = limit ?? (state === "open" ? TASK_LIST_LIMIT : DONE_LIST_LIMIT);
  let query = selectTasks(db);
  if (assigneeId !== undefined) query = query.where("leadActivities.assigneeUserId", "=", assigneeId);
  if (state === "open") {
    query = query.where(OPEN_TASK);
    // NOTE: the redundant `due_at >= at` gives both planners the index range's start; the `or` alone
    // would have them read the index from its first entry.
    if (after)
      query = query.where((eb) =>
        eb.and([
          eb("leadActivities.dueAt", ">=", after.at),
          eb.or([eb("leadActivities.dueAt", ">", after.at), eb("leadActivities.id", ">", after.id)]),
        ]),
      );
    query = query.orderBy("leadActivities.dueAt").orderBy("leadActivities.id");
  } else {
    query = query.where(DONE_TASK);
    if (after)
      query = query.where((eb) =>
        eb.and([
          eb("leadActivities.doneAt", "<=", after.at),
          eb.or([eb("leadActivities.doneAt", "<", after.at), eb("leadActivities.id", "<", after.id)]),
        ]),
      );
    query = query.orderBy("leadActivities.doneAt", "desc").orderBy("leadActivities.id", "desc");
  }
  const rows = await query.limit(size + 1).execute();
  const tasks = rows.slice(0, size).map(toTask);
  const last = tasks.at(-1);
  const at = state === "open" ? last?.dueAt : last?.doneAt;
  return { tasks, next: rows.length > size && last && at ? { at, id: last.id } : null };
}

/**
 * Tasks, open ones by due (earliest first) or done ones latest first; of one assignee, or everyone's
 * (`assigneeId` undefined): `pageTasks`' first page.
 */
export async function listTasks(
  db: Db,
  options: { assigneeId?: number; state: "open" | "done"; limit?: number },
): Promise<Task[]> {
  return (await pageTasks(db, options)).tasks;
}

/** How many open tasks `countOpenTasks` counts at most: a view with more says "10,000+". */
export const OPEN_COUNT_CAP = 10_000;

export type OpenTaskCounts = {
  /** Open tasks (at most `cap` + 1). */
  total: number;
  /** Of them, due before `now`. */
  overdue: number;
  /** Due from `now` to `tonight`. */
  today: number;
  /** Up to and including `upTo` in the list's order: where a page after it starts (0 without one). */
  upTo: number;
  /** More than `cap`: `total`, and the count of the last section it reached, are lower bounds. */
  capped: boolean;
};

/**
 * An assignee's (or everyone's) open tasks counted by section, and where the cursor `upTo` lies among
 * them, in one read of the open-tasks index (no lead or user row: an anonymised or erased lead's
 * tasks are deleted with it). Bounded: it stops after `cap` (OPEN_COUNT_CAP) + 1 tasks, earliest
 * due first, so a view of 100,000 open tasks costs what one of 10,001 does.
 */
export async function countOpenTasks(
  db: Db,
  {
    assigneeId,
    now,
    tonight,
    upTo = null,
    cap = OPEN_COUNT_CAP,
  }: { assigneeId?: number; now: string; tonight: string; upTo?: TaskCursor | null; cap?: number },
): Promise<OpenTaskCounts> {
  let open = db
    .selectFrom("leadActivities")
    .select(["leadActivities.dueAt", "leadActivities.id"])
    .where(OPEN_TASK);
  if (assigneeId !== undefined) open = open.where("leadActivities.assigneeUserId", "=", assigneeId);
  const first = open
    .orderBy("leadActivities.dueAt")
    .orderBy("leadActivities.id")
    .limit(cap + 1)
    .as("open");
  const due = sql.ref("open.dueAt");
  const id = sql.ref("open.id");
  const until = upTo
    ? sql<number>`sum(case when ${due} < ${upTo.at} or (${due} = ${upTo.at} and ${id} <= ${upTo.id}) then 1 else 0 end)`
    : sql<number>`0`;
  const row = await db
    .selectFrom(first)
    .select((eb) => [
      eb.fn.countAll<number | string>().as("total"),
      sql<number | string | null>`sum(case when ${due} < ${now} then 1 else 0 end)`.as("overdue"),
      sql<number | string | null>`sum(case when ${due} < ${tonight} then 1 else 0 end)`.as("byTonight"),
      until.as("upTo"),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  const overdue = Number(row.overdue ?? 0);
  return {
    total,
    overdue,
    today: Number(row.byTonight ?? 0) - overdue,
    upTo: Number(row.upTo ?? 0),
    capped: total > cap,
  };
}

/** The end of `now`'s day in `zone` (the next midnight), as an ISO instant. */
export function endOfDay(now: Date, zone: string): string {
  const next = parseDate(addDays(dateIn(now.getTime(), zone), 1));
  const instant = next && toInstant({ ...next, hour: 0, minute: 0 }, zone);
  return new Date(instant ?? now.getTime() + 86_400_000).toISOString();
}

/**
 * A person's tasks due by the end of their day (overdue ones first): the morning e-mail's list, and
 * what the notifications (issue 35's bell) may show as "my tasks due".
 */
export async function dueTasksFor(db: Db, userId: number, now: Date, zone = "UTC"): Promise<Task[]> {
  const rows = await selectTasks(db)
    .where("leadActivities.assigneeUserId", "=", userId)
    .where(OPEN_TASK)
    .where("leadActivities.dueAt", "<", endOfDay(now, zone))
    .orderBy("leadActivities.dueAt")
    .orderBy("leadActivities.id")
    .limit(TASK_LIST_LIMIT)
    .execute();
  return rows.map(toTask);
}

/** How many fallen-due tasks one sweep hands on at most; the next sweep takes the rest. */
export const FALLEN_DUE_LIMIT = 500;

/**
 * Where the due-task sweep has got to: every task due before `at` is handed on, and of those due at
 * `at`, the ones up to `id` (all of them when `id` is null, as after a sweep that reached its end).
 */
export type FallenDuePosition = { at: Date; id: number | null };

/**
 * Open, assigned tasks due after `after` (in due-then-id order) and at or before `until`: what the
 * bell's "task due" notifications are made from, oldest first, at most `limit`. Reads the
 * open-tasks-by-due index. The position carries the last task's id as well as its due time because
 * many tasks share one (end-of-day due times, migrated next steps): a batch that ends inside such a
 * run must leave the rest of it to the next, not skip it.
 */
export async function tasksFallenDue(
  db: Db,
  after: FallenDuePosition,
  until: Date,
  limit = FALLEN_DUE_LIMIT,
): Promise<Task[]> {
  const at = after.at.toISOString();
  const afterId = after.id;
  let query = selectTasks(db).where(OPEN_TASK);
  // As pageTasks: the redundant `due_at >= at` gives the planners the index range's start.
  query =
    afterId === null
      ? query.where("leadActivities.dueAt", ">", at)
      : query.where((eb) =>
          eb.and([
            eb("leadActivities.dueAt", ">=", at),
            eb.or([eb("leadActivities.dueAt", ">", at), eb("leadActivities.id", ">", afterId)]),
          ]),
        );
  const rows = await query
    .where("leadActivities.dueAt", "<=", until.toISOString())
    .where("leadActivities.assigneeUserId", "is not", null)
    .orderBy("leadActivities.dueAt")
    .orderBy("leadActivities.id")
    .limit(limit)
    .execute();
  return rows.map(toTask);
}

/** What one PATCH changed of a task, as its `task_changed` event records it (from and to). */
export type TaskChange = { field: "text" | "due" | "assignee"; from: string | null; to: string | null };

/**
 * Changes a task: done or open again, what, due, assignee. Each completion and reopening is on the
 * lead's timeline, and so is a change of its words, due time or assignee (one `task_changed` event
 * naming only the fields that differ; the same values again record nothing); the lead's next step
 * follows. Undefined when there is no such task (or its lead was anonymised). Throws
 * TaskNotYoursError when `editor` may not change it (mayChangeTask), and UnknownAssigneeError.
 */
export async function updateTask(
  db: Db,
  id: number,
  patch: TaskPatch,
  editor: TaskEditor,
  now = new Date(),
): Promise<Task | undefined> {
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom("leadActivities")
      .select("leadId")
      .where("id", "=", id)
      .where("kind", "=", "task")
      .executeTakeFirst();
    if (!found) return undefined;
    const leadId = Number(found.leadId);
    if (!(await readLiveLead(trx, leadId))) return undefined;
    // NOTE: the task is read only now, with its lead held (PostgreSQL): read before, two "done"
    // clicks at once would both see it open, both record task_done and the second overwrite done_by.
    const current = await trx
      .selectFrom("leadActivities")
      .select(["body", "dueAt", "doneAt", "assigneeUserId", "authorUserId"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!current) return undefined;
    const owners = {
      assigneeId: current.assigneeUserId === null ? null : Number(current.assigneeUserId),
      authorId: current.authorUserId === null ? null : Number(current.authorUserId),
    };
    if (!mayChangeTask(editor, owners)) throw new TaskNotYoursError();
    const actor = { id: editor.id, username: editor.username };
    const at = now.toISOString();
    const changes: Updateable<Database["leadActivities"]> = { updatedAt: at };
    const changed: TaskChange[] = [];
    if (patch.body !== undefined && patch.body !== current.body) {
      changes.body = patch.body;
      changed.push({ field: "text", from: current.body, to: patch.body });
    }
    // Both instants are spelled as stored (toISOString), so equal times compare equal.
    if (patch.dueAt !== undefined && patch.dueAt !== current.dueAt) {
      changes.dueAt = patch.dueAt;
      changed.push({ field: "due", from: current.dueAt, to: patch.dueAt });
    }
    if (patch.assigneeId !== undefined) {
      const assignee = await checkAssignee(trx, patch.assigneeId);
      if (patch.assigneeId !== owners.assigneeId) {
        changes.assigneeUserId = patch.assigneeId;
        changed.push({ field: "assignee", from: await usernameOf(trx, owners.assigneeId), to: assignee });
      }
    }
    if (changed.length > 0)
      await recordLeadEvent(trx, {
        leadId,
        type: "task_changed",
        actor,
        detail: { taskId: id, text: patch.body ?? current.body, changes: changed },
        now,
      });
    const wasDone = current.doneAt !== null;
    if (patch.done !== undefined && patch.done !== wasDone) {
      changes.doneAt = patch.done ? at : null;
      changes.doneByUsername = patch.done ? actor.username : null;
      await recordLeadEvent(trx, {
        leadId,
        type: patch.done ? "task_done" : "task_reopened",
        actor,
        detail: { taskId: id, text: patch.body ?? current.body },
        now,
      });
    }
    await trx.updateTable("leadActivities").set(changes).where("id", "=", id).execute();
    await refreshNextTask(trx, leadId, now);
    return findTask(trx, id);
  });
}

/** The earliest open task of each of `leadIds` that has one (the list's page: one indexed read). */
export async function nextTasksOf(db: Db, leadIds: number[]): Promise<Map<number, Task>> {
  if (leadIds.length === 0) return new Map();
  const rows = await selectTasks(db)
    .whereRef("leads.nextTaskId", "=", "leadActivities.id")
    .where("leadActivities.leadId", "in", leadIds)
    .execute();
  return new Map(rows.map((row) => [Number(row.leadId), toTask(row)]));
}
