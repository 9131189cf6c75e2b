import { Form } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { textControlClass } from "#app/components/ui/input.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { loadTasksPage, tasksPageAction } from "#app/features/leads/tasks-page.server.ts";
import { NoticeBanner } from "#app/features/leads/ui/notice-banner.tsx";
import { TaskSections } from "#app/features/leads/ui/task-list.tsx";
import { adminUser, requirePermission } from "#app/lib/admin-guard.server.ts";
import { cn } from "#app/lib/cn.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/tasks";

// Issue 35, "My tasks": what the signed-in person has to do on their leads, overdue first, then
// today, then later, and what they did lately; each done with one click (a form per task) or one
// key (j/k, then x or space). Someone with tasks.team can look at anyone's, or everyone's. Open
// tasks come 100 a page (`?after=`, a keyset cursor), so every one is reachable.

export const meta: Route.MetaFunction = () => adminMeta("My tasks");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadTasksPage(request, context, adminUser(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return tasksPageAction(request, context, requirePermission(context, "tasks.own"));
}

const NOTICES = new Set(["task-done", "task-reopened"]);

export default function Tasks({ loaderData, actionData }: Route.ComponentProps) {
  const { sections, pager, zone, team, assignee, staff, notice } = loaderData;
  const error = actionData && "message" in actionData ? actionData.message : null;
  const open = pager.total.toLocaleString("en-GB");
  const paged = pager.first !== null || pager.next !== null;
  // On a paged list, which of them this page holds (the pager after the list says it again).
  const here =
    paged && pager.from !== null && pager.to !== null
      ? `; ${pager.from.toLocaleString("en-GB")}–${pager.to.toLocaleString("en-GB")} on this page`
      : "";
  return (
    <div className="mx-auto grid max-w-4xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="My tasks"
        description={
          <>
            {pager.total === 0
              ? "No open tasks."
              : `${pager.atLeast ? `More than ${open}` : open} open ${pager.total === 1 ? "task" : "tasks"}${here}.`}{" "}
            Add a task from a lead's page (the Task tab above its timeline). Times are in{" "}
            {zone.replace(/_/g, " ")}. Keyboard:{" "}
            <kbd className="rounded border border-line bg-surface-muted px-1 font-mono text-xs">j</kbd>/
            <kbd className="rounded border border-line bg-surface-muted px-1 font-mono text-xs">k</kbd> move,{" "}
            <kbd className="rounded border border-line bg-surface-muted px-1 font-mono text-xs">x</kbd> marks
            done.
          </>
        }
      />
      {error ? <Banner tone="error">{error}</Banner> : null}
      {!error && notice && NOTICES.has(notice) ? (
        <NoticeBanner notice={notice as "task-done" | "task-reopened"} />
      ) : null}
      {team ? (
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1">
            <label htmlFor="tasks-assignee" className="text-sm font-semibold">
              Whose tasks
            </label>
            <select
              id="tasks-assignee"
              name="assignee"
              defaultValue={assignee}
              className={cn(textControlClass, "h-9 w-56 text-sm")}
            >
              <option value="me">Mine</option>
              <option value="all">Everyone's</option>
              {staff.map((member) => (
                <option key={member.id} value={member.id}>
                  {member.username}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" size="sm" variant="outline">
            Show
          </Button>
        </Form>
      ) : null}
      <TaskSections sections={sections} pager={pager} showAssignee={assignee !== "me"} />
    </div>
  );
}
