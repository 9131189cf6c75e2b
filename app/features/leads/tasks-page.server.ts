import { data, type RouterContextProvider, redirect } from "react-router";
import { readForm } from "#app/lib/http.server.ts";
import { can } from "#app/lib/permissions.ts";
import type { StaffUser } from "#app/lib/staff-guard.server.ts";
import { endOfDay, listTasks, type Task, updateTask } from "./lead-activities.server.ts";
import { assignableStaff } from "./lead-admin.server.ts";
import { withNotice } from "./lead-forms.server.ts";
import { leadsServices, timeZoneOf } from "./leads-context.server.ts";
import { formatDue } from "./ui/task-format.ts";

// The /admin/tasks page's server side (issue 35): the signed-in person's tasks in four sections
// (overdue, today, upcoming, recently done) read in their zone, and the one-click done form. With
// tasks.team, anyone's (`?assignee=<id>`) or everyone's (`?assignee=all`).

type Context = Readonly<RouterContextProvider>;

/** Open tasks the page shows at most, earliest due first (the API pages up to 200). */
export const TASK_PAGE_LIMIT = 100;

export type TaskItem = Task & { due: string; done: string; overdue: boolean };

export const TASK_SECTIONS = ["overdue", "today", "upcoming", "done"] as const;
export type TaskSection = (typeof TASK_SECTIONS)[number];

/** Whose tasks the URL asks for: "me", "all" or a user id (the last two: tasks.team only). */
function whose(url: URL, user: StaffUser): { assigneeId: number | undefined; value: string } {
  const raw = url.searchParams.get("assignee") ?? "me";
  if (!can(user.role, "tasks.team") || raw === "me") return { assigneeId: user.id, value: "me" };
  if (raw === "all") return { assigneeId: undefined, value: "all" };
  const id = Number(raw);
  return /^\d{1,15}$/.test(raw) && id > 0
    ? { assigneeId: id, value: raw }
    : { assigneeId: user.id, value: "me" };
}

export async function loadTasksPage(request: Request, context: Context, user: StaffUser) {
  const url = new URL(request.url);
  const services = await leadsServices(context);
  const { database } = services;
  const zone = await timeZoneOf(services, user.id);
  const { assigneeId, value } = whose(url, user);
  const team = can(user.role, "tasks.team");
  const [open, done, staff] = await Promise.all([
    listTasks(database.db, { assigneeId, state: "open", limit: TASK_PAGE_LIMIT }),
    listTasks(database.db, { assigneeId, state: "done" }),
    team ? assignableStaff(database.db) : Promise.resolve([]),
  ]);
  const now = new Date();
  const nowIso = now.toISOString();
  const tonight = endOfDay(now, zone);
  const view = (task: Task): TaskItem => ({
    ...task,
    due: formatDue(task.dueAt, zone, now),
    done: task.doneAt ? formatDue(task.doneAt, zone, now) : "",
    overdue: task.doneAt === null && task.dueAt < nowIso,
  });
  const sections: Record<TaskSection, TaskItem[]> = { overdue: [], today: [], upcoming: [], done: [] };
  for (const task of open.map(view)) {
    if (task.overdue) sections.overdue.push(task);
    else if (task.dueAt < tonight) sections.today.push(task);
    else sections.upcoming.push(task);
  }
  sections.done = done.map(view);
  return {
    sections,
    zone,
    me: user.id,
    team,
    assignee: value,
    staff: staff.filter((member) => !member.disabled),
    truncated: open.length >= TASK_PAGE_LIMIT ? TASK_PAGE_LIMIT : null,
    notice: url.searchParams.get("notice"),
  };
}

/** `intent=task-done` (`taskId`, `done` true or false): one click, one form per task. */
export async function tasksPageAction(request: Request, context: Context, user: StaffUser) {
  const form = await readForm(request);
  const url = new URL(request.url);
  if (form.get("intent") !== "task-done") return data({ message: "Unknown action." }, { status: 400 });
  const raw = form.get("taskId") ?? "";
  const id = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || id < 1) return data({ message: "Unknown task." }, { status: 400 });
  const done = form.get("done") !== "false";
  const { database } = await leadsServices(context);
  const task = await updateTask(database.db, id, { done }, user);
  if (!task) return data({ message: "That task no longer exists." }, { status: 404 });
  throw redirect(withNotice(url.pathname + url.search, done ? "task-done" : "task-reopened"));
}
