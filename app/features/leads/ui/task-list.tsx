import { Fragment, useEffect, useRef, useState } from "react";
import { Link, useSubmit } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { countOf } from "#app/lib/count-words.ts";
import type { SectionView, TaskItem, TaskPager, TaskSection } from "../tasks-page.server.ts";

// The My tasks page's lists (issue 35): each task with what, its lead, when (overdue marked) and a
// done control that is its own form (one click, no JavaScript needed). With JavaScript, j/k move
// between tasks and x or space marks the one the keyboard is on done (or open again), as the lead
// list's shortcuts work (list-shortcuts.tsx): never while typing or with a modifier held. Open tasks
// come a page at a time: each section's count is all of its tasks, a section that began on the page
// before says "continued", one whose tasks are all on other pages says where, and the pager between
// the open tasks and the done ones links the first page and the next (plain links, so no JavaScript
// is needed; j/k move over the page shown).

const SECTION_TITLES: Record<TaskSection, string> = {
  overdue: "Overdue",
  today: "Today",
  upcoming: "Upcoming",
  done: "Done recently",
};

const EMPTY: Record<TaskSection, string> = {
  overdue: "Nothing overdue.",
  today: "Nothing else due today.",
  upcoming: "Nothing planned after today.",
  done: "No task done yet.",
};

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** j/k and x/space over the rows in `ids` (page order); the row the keyboard is on. */
function useTaskShortcuts(ids: number[]) {
  const submit = useSubmit();
  const [activeId, setActiveId] = useState<number | null>(null);
  const state = useRef({ ids, activeId });
  state.current = { ids, activeId };
  useEffect(() => {
    const rowOf = (id: number) => document.querySelector<HTMLElement>(`[data-task-row="${id}"]`);
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      const { ids: all, activeId: current } = state.current;
      if (event.key === "j" || event.key === "k") {
        if (all.length === 0) return;
        const step = event.key === "j" ? 1 : -1;
        const index =
          current === null || !all.includes(current)
            ? step > 0
              ? 0
              : all.length - 1
            : all.indexOf(current) + step;
        const next = all[Math.max(0, Math.min(all.length - 1, index))];
        if (next === undefined) return;
        setActiveId(next);
        rowOf(next)?.querySelector<HTMLElement>("[data-task-link]")?.focus({ preventScroll: true });
        rowOf(next)?.scrollIntoView({ block: "nearest" });
      } else if (event.key === "x" || event.key === " ") {
        // Space on a focused button or link is that control's own.
        if (event.key === " " && event.target instanceof HTMLElement && event.target.closest("button"))
          return;
        if (current === null) return;
        const form = rowOf(current)?.querySelector<HTMLFormElement>("form[data-task-done]");
        if (!form) return;
        submit(form);
      } else return;
      event.preventDefault();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [submit]);
  return activeId;
}

const number = (count: number) => count.toLocaleString("en-GB");

export function TaskSections({
  sections,
  pager,
  showAssignee,
}: {
  sections: Record<TaskSection, SectionView>;
  pager: TaskPager;
  showAssignee: boolean;
}) {
  const order: TaskSection[] = ["overdue", "today", "upcoming", "done"];
  const ids = order.flatMap((section) => sections[section].tasks.map((task) => task.id));
  const activeId = useTaskShortcuts(ids);
  const submit = useSubmit();
  const paged = pager.first !== null || pager.next !== null;
  return (
    <div
      className="grid gap-6"
      onSubmit={(event) => {
        const form = event.target;
        if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-task-done")) return;
        event.preventDefault();
        void submit(form, { method: "post" });
      }}
    >
      {order.map((section) => {
        const view = sections[section];
        return (
          <Fragment key={section}>
            {section === "done" && paged ? <TaskPagerNav pager={pager} /> : null}
            <section
              aria-labelledby={`tasks-${section}`}
              className="rounded-xl border border-line bg-white shadow-sm"
            >
              <h2
                id={`tasks-${section}`}
                className={cn(
                  "flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-line px-4 py-3 text-base font-semibold",
                  section === "overdue" && view.count > 0 && "text-red-900",
                )}
              >
                {SECTION_TITLES[section]}
                <span className="rounded-full bg-surface-muted px-2 py-0.5 text-xs font-semibold text-ink-muted">
                  {number(view.count)}
                  {view.atLeast ? "+" : ""}
                </span>
                {view.continued ? (
                  <span className="text-sm font-normal text-ink-muted">continued from the page before</span>
                ) : null}
              </h2>
              {view.tasks.length > 0 ? (
                <ul className="divide-y divide-line">
                  {view.tasks.map((task) => (
                    <TaskRow
                      key={task.id}
                      task={task}
                      active={task.id === activeId}
                      showAssignee={showAssignee}
                    />
                  ))}
                </ul>
              ) : view.elsewhere === "earlier" && pager.first ? (
                <p className="px-4 py-4 text-sm text-ink-muted">
                  {view.count === 1 ? "It is" : "All are"} on the pages before this one.{" "}
                  <Link
                    to={pager.first}
                    className="font-semibold whitespace-nowrap text-brand underline underline-offset-2"
                  >
                    Back to the first page
                  </Link>
                </p>
              ) : view.elsewhere === "later" && pager.next ? (
                <p className="px-4 py-4 text-sm text-ink-muted">
                  {countOf(view.count, "task")}
                  {view.atLeast ? " or more" : ""}, after the ones on this page.{" "}
                  <Link
                    to={pager.next}
                    className="font-semibold whitespace-nowrap text-brand underline underline-offset-2"
                  >
                    Next page
                  </Link>
                </p>
              ) : (
                <p className="px-4 py-4 text-sm text-ink-muted">{EMPTY[section]}</p>
              )}
            </section>
          </Fragment>
        );
      })}
    </div>
  );
}

/** Where this page is among the open tasks, and plain links to the first page and the next. */
function TaskPagerNav({ pager }: { pager: TaskPager }) {
  const total = pager.atLeast ? `more than ${number(pager.total)}` : number(pager.total);
  const range =
    pager.shown === 0
      ? "No more open tasks after the pages before this one."
      : pager.from !== null && pager.to !== null
        ? `Open tasks ${number(pager.from)}–${number(pager.to)} of ${total}`
        : `${countOf(pager.shown, "open task")} of ${total}`;
  return (
    <nav
      aria-label="Pages of open tasks"
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-3 rounded-xl border border-line bg-white px-4 py-3 shadow-sm"
    >
      <p className="text-sm text-ink-muted" aria-live="polite">
        {range}
      </p>
      <div className="flex flex-wrap gap-2">
        {pager.first ? (
          <Button asChild size="sm" variant="outline">
            <Link to={pager.first}>
              <span aria-hidden="true">←</span>
              First page
            </Link>
          </Button>
        ) : null}
        {pager.next ? (
          <Button asChild size="sm" variant="primary">
            <Link to={pager.next} rel="next">
              Next {number(pager.nextCount)} {pager.nextCount === 1 ? "task" : "tasks"}
              <span aria-hidden="true">→</span>
            </Link>
          </Button>
        ) : null}
      </div>
    </nav>
  );
}

function TaskRow({ task, active, showAssignee }: { task: TaskItem; active: boolean; showAssignee: boolean }) {
  const done = task.doneAt !== null;
  return (
    <li
      data-task-row={task.id}
      data-active={active || undefined}
      className={cn(
        "flex min-w-0 items-start gap-3 px-4 py-3",
        active && "bg-brand-soft/60 outline-2 -outline-offset-2 outline-brand",
      )}
    >
      {/* A plain form (no router hooks per row: a person may have hundreds); with JavaScript the
          list's one submit listener sends it through the router. */}
      <form method="post" data-task-done className="shrink-0 pt-0.5">
        <input type="hidden" name="intent" value="task-done" />
        <input type="hidden" name="taskId" value={task.id} />
        <input type="hidden" name="done" value={done ? "false" : "true"} />
        <button
          type="submit"
          aria-label={done ? `Reopen: ${task.body}` : `Mark done: ${task.body}`}
          title={done ? "Reopen" : "Mark done (x)"}
          className={cn(
            "grid size-6 place-items-center rounded-full border-2 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand",
            done
              ? "border-brand bg-brand text-white"
              : "border-ink-muted/60 bg-white text-transparent hover:border-brand hover:text-brand",
          )}
        >
          <svg
            viewBox="0 0 16 16"
            aria-hidden="true"
            className="size-3.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
          >
            <path d="M3.5 8.5l3 3 6-7" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      </form>
      <div className="min-w-0 flex-1">
        <p className={cn("break-words font-semibold", done && "text-ink-muted line-through")}>{task.body}</p>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-muted">
          <Link
            to={`/admin/leads/${task.leadId}`}
            data-task-link
            className="font-semibold text-brand underline underline-offset-2"
          >
            {task.leadName}
          </Link>
          {done ? (
            <span>
              Done <time dateTime={task.doneAt ?? ""}>{task.done}</time>
              {task.doneBy ? ` by ${task.doneBy}` : ""}
            </span>
          ) : (
            <span className={cn("inline-flex items-center gap-1.5", task.overdue && "text-red-900")}>
              {task.overdue ? (
                <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">
                  Overdue
                </span>
              ) : null}
              Due <time dateTime={task.dueAt}>{task.due}</time>
            </span>
          )}
          {showAssignee && task.assignee ? <span>For {task.assignee}</span> : null}
        </p>
      </div>
    </li>
  );
}
