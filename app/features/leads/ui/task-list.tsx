import { useEffect, useRef, useState } from "react";
import { Link, useSubmit } from "react-router";
import { cn } from "#app/lib/cn.ts";
import type { TaskItem, TaskSection } from "../tasks-page.server.ts";

// The My tasks page's lists (issue 35): each task with what, its lead, when (overdue marked) and a
// done control that is its own form (one click, no JavaScript needed). With JavaScript, j/k move
// between tasks and x or space marks the one the keyboard is on done (or open again), as the lead
// list's shortcuts work (list-shortcuts.tsx): never while typing or with a modifier held.

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

export function TaskSections({
  sections,
  showAssignee,
}: {
  sections: Record<TaskSection, TaskItem[]>;
  showAssignee: boolean;
}) {
  const order: TaskSection[] = ["overdue", "today", "upcoming", "done"];
  const ids = order.flatMap((section) => sections[section].map((task) => task.id));
  const activeId = useTaskShortcuts(ids);
  const submit = useSubmit();
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
      {order.map((section) => (
        <section
          key={section}
          aria-labelledby={`tasks-${section}`}
          className="rounded-xl border border-line bg-white shadow-sm"
        >
          <h2
            id={`tasks-${section}`}
            className={cn(
              "flex items-center gap-2 border-b border-line px-4 py-3 text-base font-semibold",
              section === "overdue" && sections.overdue.length > 0 && "text-red-900",
            )}
          >
            {SECTION_TITLES[section]}
            <span className="rounded-full bg-surface-muted px-2 py-0.5 text-xs font-semibold text-ink-muted">
              {sections[section].length}
            </span>
          </h2>
          {sections[section].length === 0 ? (
            <p className="px-4 py-4 text-sm text-ink-muted">{EMPTY[section]}</p>
          ) : (
            <ul className="divide-y divide-line">
              {sections[section].map((task) => (
                <TaskRow
                  key={task.id}
                  task={task}
                  active={task.id === activeId}
                  showAssignee={showAssignee}
                />
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
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
