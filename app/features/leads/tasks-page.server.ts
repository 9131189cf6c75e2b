import { data, type RouterContextProvider, redirect } from "react-router";
import { readForm } from "#app/lib/http.server.ts";
import { formatKeysetCursor, parseKeysetCursor } from "#app/lib/keyset-cursor.ts";
import { can } from "#app/lib/permissions.ts";
import type { StaffUser } from "#app/lib/staff-guard.server.ts";
import {
  countOpenTasks,
  endOfDay,
  OPEN_COUNT_CAP,
  pageTasks,
  type Task,
  type TaskCursor,
  TaskNotYoursError,
  updateTask,
} from "./lead-activities.server.ts";
import { assignableStaff } from "./lead-admin.server.ts";
import { withNotice } from "./lead-forms.server.ts";
import { leadsServices, timeZoneOf } from "./leads-context.server.ts";
import { formatDue } from "./ui/task-format.ts";

// The /admin/tasks page's server side (issue 35): the signed-in person's tasks in four sections
// (overdue, today, upcoming, recently done) read in their zone, and the one-click done form. With
// tasks.team, anyone's (`?assignee=<id>`) or everyone's (`?assignee=all`). Open tasks come a page
// at a time, earliest due first; `?after=<due>_<id>` (the last task of the page before) starts the
// next, so a rep with thousands reaches every one, and each page is one short indexed read.

type Context = Readonly<RouterContextProvider>;

/** Open tasks a page shows, the earliest due first; "Next" carries on after the last (keyset). */
export const TASK_PAGE_SIZE = 100;

export type TaskItem = Task & { due: string; done: string; overdue: boolean };

export const TASK_SECTIONS = ["overdue", "today", "upcoming", "done"] as const;
export type TaskSection = (typeof TASK_SECTIONS)[number];
type OpenSection = Exclude<TaskSection, "done">;
const OPEN_SECTIONS: readonly OpenSection[] = ["overdue", "today", "upcoming"];

export type SectionView = {
  /** The section's tasks on this page. */
  tasks: TaskItem[];
  /** All its tasks in the view, on every page (done: the ones shown). */
  count: number;
  /** `count` is a lower bound: the view has more than OPEN_COUNT_CAP open tasks. */
  atLeast: boolean;
  /** It began on an earlier page. */
  continued: boolean;
  /** Where its tasks are when it has some but none on this page. */
  elsewhere: "earlier" | "later" | null;
};

export type TaskPager = {
  /** Places of the first and last open task shown (1-based), null when unknown (past the cap). */
  from: number | null;
  to: number | null;
  /** Open tasks on this page. */
  shown: number;
  /** All of the view's open tasks (OPEN_COUNT_CAP when `atLeast`: more than that). */
  total: number;
  atLeast: boolean;
  /** The first page's address, on a later page. */
  first: string | null;
  /** The next page's address, and how many tasks it starts with; null on the last page. */
  next: string | null;
  nextCount: number;
};

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

/** The page for `assignee` ("me", "all" or an id), from just after `after` (the first page when null). */
export function tasksHref(assignee: string, after: TaskCursor | null): string {
  // Both are URL-safe as they are ("all" or digits; digits, "-", "T", ":", ".", "Z" and "_"): left
  // unescaped, the address reads as the due time it starts after.
  const query = [
    assignee === "me" ? null : `assignee=${assignee}`,
    after ? `after=${formatKeysetCursor(after)}` : null,
  ].filter((part) => part !== null);
  return query.length > 0 ? `${TASKS_PATH}?${query.join("&")}` : TASKS_PATH;
}

const TASKS_PATH = "/admin/tasks";

export async function loadTasksPage(request: Request, context: Context, user: StaffUser) {
  const url = new URL(request.url);
  const { assigneeId, value } = whose(url, user);
  const rawAfter = url.searchParams.get("after");
  const after = parseKeysetCursor(rawAfter);
  // A hand-edited or truncated cursor: start again from the first page of the same person's tasks.
  if (rawAfter !== null && !after) throw redirect(tasksHref(value, null));
  const services = await leadsServices(context);
  const { database } = services;
  const zone = await timeZoneOf(services, user.id);
  const team = can(user.role, "tasks.team");
  const now = new Date();
  const nowIso = now.toISOString();
  const tonight = endOfDay(now, zone);
  const [open, done, counts, staff] = await Promise.all([
    pageTasks(database.db, { assigneeId, state: "open", after, limit: TASK_PAGE_SIZE }),
    pageTasks(database.db, { assigneeId, state: "done" }),
    countOpenTasks(database.db, { assigneeId, now: nowIso, tonight, upTo: after }),
    team ? assignableStaff(database.db) : Promise.resolve([]),
  ]);
  const view = (task: Task): TaskItem => ({
    ...task,
    due: formatDue(task.dueAt, zone, now),
    done: task.doneAt ? formatDue(task.doneAt, zone, now) : "",
    overdue: task.doneAt === null && task.dueAt < nowIso,
  });
  const onPage: Record<OpenSection, TaskItem[]> = { overdue: [], today: [], upcoming: [] };
  /** Where each section starts in due time (overdue: from the first). */
  const bounds: Record<OpenSection, string> = { overdue: "", today: nowIso, upcoming: tonight };
  for (const task of open.tasks.map(view)) {
    if (task.overdue) onPage.overdue.push(task);
    else if (task.dueAt < tonight) onPage.today.push(task);
    else onPage.upcoming.push(task);
  }
  // The sections are consecutive stretches of the list's order (due before now, before tonight,
  // later): one with no task on this page has them all before it when a later section's tasks are
  // here (or none is: the page is past the last task), else all after it.
  const counted: Record<OpenSection, number> = {
    overdue: counts.overdue,
    today: counts.today,
    upcoming: counts.total - counts.overdue - counts.today,
  };
  const lastHere = OPEN_SECTIONS.findLastIndex((section) => onPage[section].length > 0);
  // Over the cap the count stopped in the last section it reached: that one's is a lower bound.
  const partial = counts.capped ? OPEN_SECTIONS.findLast((section) => counted[section] > 0) : undefined;
  const openSection = (section: OpenSection, index: number): SectionView => {
    const tasks = onPage[section];
    const count = Math.max(counted[section], tasks.length);
    let elsewhere: SectionView["elsewhere"] = null;
    if (tasks.length === 0 && count > 0)
      elsewhere = after !== null && (lastHere === -1 || lastHere > index) ? "earlier" : "later";
    return {
      tasks,
      count,
      atLeast: section === partial,
      // It began before this page when the page's cursor (the task before its first) is in it too.
      continued: tasks.length > 0 && after !== null && (index === 0 || after.at >= bounds[section]),
      elsewhere,
    };
  };
  const sections: Record<TaskSection, SectionView> = {
    overdue: openSection("overdue", 0),
    today: openSection("today", 1),
    upcoming: openSection("upcoming", 2),
    done: {
      tasks: done.tasks.map(view),
      count: done.tasks.length,
      atLeast: false,
      continued: false,
      elsewhere: null,
    },
  };
  // Where this page starts among the open tasks: unknown only past the count's cap.
  const start = after === null ? 0 : counts.capped && counts.upTo >= counts.total ? null : counts.upTo;
  const shown = open.tasks.length;
  const remaining = start === null || counts.capped ? null : counts.total - start - shown;
  const pager: TaskPager = {
    from: start === null || shown === 0 ? null : start + 1,
    to: start === null || shown === 0 ? null : start + shown,
    shown,
    total: counts.capped ? OPEN_COUNT_CAP : counts.total,
    atLeast: counts.capped,
    first: after ? tasksHref(value, null) : null,
    next: open.next ? tasksHref(value, open.next) : null,
    nextCount: remaining !== null && remaining > 0 ? Math.min(TASK_PAGE_SIZE, remaining) : TASK_PAGE_SIZE,
  };
  return {
    sections,
    pager,
    zone,
    me: user.id,
    team,
    assignee: value,
    staff: staff.filter((member) => !member.disabled),
    notice: url.searchParams.get("notice"),
  };
}

/**
 * `intent=task-done` (`taskId`, `done` true or false): one click, one form per task. Only a task of
 * one's own (assigned to or added by the person) unless they have tasks.team: else 403, the page
 * saying why.
 */
export async function tasksPageAction(request: Request, context: Context, user: StaffUser) {
  const form = await readForm(request);
  const url = new URL(request.url);
  if (form.get("intent") !== "task-done") return data({ message: "Unknown action." }, { status: 400 });
  const raw = form.get("taskId") ?? "";
  const id = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || id < 1) return data({ message: "Unknown task." }, { status: 400 });
  const done = form.get("done") !== "false";
  const { database } = await leadsServices(context);
  let task: Task | undefined;
  try {
    task = await updateTask(database.db, id, { done }, user);
  } catch (error) {
    // A task of someone else's (a hand-made post: the page shows a rep only theirs): nothing changed.
    if (error instanceof TaskNotYoursError) return data({ message: error.message }, { status: 403 });
    throw error;
  }
  if (!task) return data({ message: "That task no longer exists." }, { status: 404 });
  throw redirect(withNotice(url.pathname + url.search, done ? "task-done" : "task-reopened"));
}
