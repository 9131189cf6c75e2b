import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { readJsonObject } from "#app/lib/http.server.ts";
import { formatKeysetCursor, parseKeysetCursor } from "#app/lib/keyset-cursor.ts";
import { can } from "#app/lib/permissions.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import {
  ActivityInputSchema,
  addActivity,
  pageTasks,
  TaskNotYoursError,
  TaskPatchSchema,
  UnknownAssigneeError,
  updateTask,
} from "./lead-activities.server.ts";
import { addNote } from "./lead-notes.server.ts";
import { leadsServices } from "./leads-context.server.ts";

// Issue 35's API (ADR 041): POST /api/admin/leads/:id/activities, GET /api/admin/tasks and
// PATCH /api/admin/tasks/:id. Each checks the session and its permission first; changes also refuse
// cross-site requests, like the rest of /api/admin.

type Context = Readonly<RouterContextProvider>;

/** An activity's JSON is small: a note's 5,000 characters (each up to 4 bytes in UTF-8) and a few fields. */
const ACTIVITY_BODY_LIMIT = 32 * 1024;
const TASK_PATCH_LIMIT = 4 * 1024;

const notFound = (what: string) => Response.json({ message: `${what} not found.` }, { status: 404 });
const badRequest = (issue: z.core.$ZodIssue | undefined, fallback: string) =>
  Response.json(
    { message: issue?.message ?? fallback, ...(issue?.path.length ? { field: String(issue.path[0]) } : {}) },
    { status: 400 },
  );

function positiveId(raw: string | undefined): number | null {
  const id = Number(raw);
  return raw && /^\d{1,15}$/.test(raw) && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** POST /api/admin/leads/:id/activities { kind, body, outcome?, durationMinutes?, direction?, dueAt?, assigneeId? }: 201. */
export async function handleAddActivity(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "leads.write");
  assertSameOrigin(request);
  const body = await readJsonObject(request, ACTIVITY_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = ActivityInputSchema.safeParse(body.value);
  if (!parsed.success) return badRequest(parsed.error.issues[0], "Invalid activity.");
  const id = positiveId(rawId);
  if (id === null) return notFound("Lead");
  const { database } = await leadsServices(context);
  const input = parsed.data;
  if (input.kind === "note") {
    const note = await addNote(database.db, id, input.body, user);
    return note ? Response.json({ kind: "note", leadId: id, ...note }, { status: 201 }) : notFound("Lead");
  }
  try {
    const activity = await addActivity(database.db, id, input, user);
    return activity ? Response.json(activity, { status: 201 }) : notFound("Lead");
  } catch (error) {
    if (error instanceof UnknownAssigneeError)
      return Response.json({ message: error.message, field: "assigneeId" }, { status: 400 });
    throw error;
  }
}

const TaskQuerySchema = z.object({
  mine: z.enum(["1", "0"]).optional(),
  state: z.enum(["open", "done"]).default("open"),
  assignee: z
    .string()
    .regex(/^\d{1,15}$/, "assignee must be a user id.")
    .transform(Number)
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, "limit must be 1 to 200.")
    .transform(Number)
    .pipe(z.number().int().min(1, "limit must be 1 to 200.").max(200, "limit must be 1 to 200."))
    .optional(),
  after: z
    .string()
    .transform((value, context) => {
      const cursor = parseKeysetCursor(value);
      if (!cursor) context.addIssue({ code: "custom", message: "after must be a page's next value." });
      return cursor ?? z.NEVER;
    })
    .optional(),
});

/**
 * GET /api/admin/tasks?mine=1&state=open|done: the signed-in person's tasks (tasks.own). Without
 * mine=1, everyone's or one assignee's (`assignee=<id>`): tasks.team only. Paged by keyset: the
 * answer's `next` (null on the last page), sent back as `after`, gives the tasks after these.
 */
export async function handleListTasks(request: Request, context: Context) {
  const user = await requireApiPermission(request, context, "tasks.own");
  const url = new URL(request.url);
  const parsed = TaskQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return badRequest(parsed.error.issues[0], "Invalid query.");
  const { mine, state, assignee, limit, after } = parsed.data;
  const own = mine === "1" || assignee === user.id;
  if (!own && !can(user.role, "tasks.team"))
    return Response.json({ message: "Your role may list only your own tasks: add mine=1." }, { status: 403 });
  const { database } = await leadsServices(context);
  const page = await pageTasks(database.db, {
    assigneeId: mine === "1" ? user.id : assignee,
    state,
    after,
    limit,
  });
  return Response.json({ tasks: page.tasks, next: page.next ? formatKeysetCursor(page.next) : null });
}

/**
 * PATCH /api/admin/tasks/:id { done?, body?, dueAt?, assigneeId? }: the task as it is now. Only a
 * task assigned to the caller or added by them, unless they have tasks.team: else 403.
 */
export async function handlePatchTask(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "tasks.own");
  assertSameOrigin(request);
  const body = await readJsonObject(request, TASK_PATCH_LIMIT);
  if (!body.ok) return body.response;
  const parsed = TaskPatchSchema.safeParse(body.value);
  if (!parsed.success) return badRequest(parsed.error.issues[0], "Invalid task change.");
  const id = positiveId(rawId);
  if (id === null) return notFound("Task");
  const { database } = await leadsServices(context);
  try {
    const task = await updateTask(database.db, id, parsed.data, user);
    return task ? Response.json(task) : notFound("Task");
  } catch (error) {
    if (error instanceof TaskNotYoursError) return Response.json({ message: error.message }, { status: 403 });
    if (error instanceof UnknownAssigneeError)
      return Response.json({ message: error.message, field: "assigneeId" }, { status: 400 });
    throw error;
  }
}
