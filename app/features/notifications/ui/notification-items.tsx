import { Form } from "react-router";
import { cn } from "#app/lib/cn.ts";

// The bell's list and the notifications page's (issue 35): each notification is a form that marks it
// read and opens its page (POST /admin/notifications, intent "open"), with or without JavaScript.

export const NOTIFICATIONS_PATH = "/admin/notifications";

export type NotificationItemView = {
  id: number;
  kind: string;
  title: string;
  /** What a due task says (only for a role that reads leads). */
  detail: string | null;
  /** The lead's name and company (only for a role that reads leads). */
  lead: string | null;
  /** When, as the back office writes times ("Nov 21, 2026, 10:05 AM"). */
  when: string;
  read: boolean;
};

/** The bell's data: the unread count and the newest few, unread first. */
export type BellView = { unread: number; items: NotificationItemView[] };

export function NotificationItems({
  items,
  next,
  markEach = false,
}: {
  items: NotificationItemView[];
  /** Where "Mark read" comes back to. */
  next: string;
  /** The page: a "Mark read" button beside each unread one. */
  markEach?: boolean;
}) {
  return (
    <ul className="divide-y divide-line">
      {items.map((item) => (
        <li key={item.id} className={cn("flex items-start gap-2", !item.read && "bg-brand-soft/40")}>
          <Form method="post" action={NOTIFICATIONS_PATH} className="min-w-0 flex-1">
            <input type="hidden" name="intent" value="open" />
            <input type="hidden" name="id" value={item.id} />
            <button
              type="submit"
              className="flex w-full min-w-0 items-start gap-3 px-4 py-3 text-left hover:bg-surface-muted focus-visible:outline-3 focus-visible:-outline-offset-3"
            >
              <KindIcon kind={item.kind} />
              <span className="grid min-w-0 flex-1 gap-0.5">
                <span className={cn("text-sm break-words text-ink", !item.read && "font-semibold")}>
                  {item.title}
                </span>
                {item.detail ? <span className="truncate text-sm text-ink">{item.detail}</span> : null}
                {item.lead ? <span className="truncate text-sm text-ink-muted">{item.lead}</span> : null}
                <span className="text-xs text-ink-muted">
                  {item.when}
                  {item.read ? null : <span className="sr-only">, unread</span>}
                </span>
              </span>
              {item.read ? null : (
                <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-accent" />
              )}
            </button>
          </Form>
          {markEach && !item.read ? (
            <Form method="post" action={NOTIFICATIONS_PATH} className="shrink-0 py-2 pr-2 sm:pr-3">
              <input type="hidden" name="intent" value="read" />
              <input type="hidden" name="id" value={item.id} />
              <input type="hidden" name="next" value={next} />
              {/* A tick on phones, words from 640 px; named the same either way. */}
              <button
                type="submit"
                title="Mark read"
                className="grid size-10 place-items-center rounded-md text-sm font-semibold text-brand hover:bg-brand-soft sm:flex sm:h-10 sm:w-auto sm:px-2"
              >
                <svg
                  aria-hidden="true"
                  viewBox="0 0 20 20"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  className="size-5 sm:hidden"
                >
                  <path d="M4 10.5 8 14l8-8" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
                <span className="sr-only sm:not-sr-only">Mark read</span>
                <span className="sr-only">: {item.title}</span>
              </button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** "Mark all read", coming back to `next`. */
export function MarkAllRead({ next, className }: { next: string; className?: string }) {
  return (
    <Form method="post" action={NOTIFICATIONS_PATH} className={className}>
      <input type="hidden" name="intent" value="read-all" />
      <input type="hidden" name="next" value={next} />
      <button
        type="submit"
        className="rounded-md px-2 py-1.5 text-sm font-semibold text-brand hover:bg-brand-soft"
      >
        Mark all read
      </button>
    </Form>
  );
}

const ICON_PATHS: Record<string, string> = {
  lead: "M10 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 7a6 6 0 0 1 12 0",
  meeting: "M4 5h12v11H4zM4 9h12M7 3v4M13 3v4",
  alert: "M10 3 2.5 16h15L10 3Zm0 5v4m0 2.5v.5",
  task: "M4 10.5 8 14l8-8",
};

function KindIcon({ kind }: { kind: string }) {
  const icon = kind.startsWith("meeting.")
    ? "meeting"
    : kind === "watch.alert"
      ? "alert"
      : kind === "task.due"
        ? "task"
        : "lead";
  return (
    <span
      aria-hidden="true"
      className={cn(
        "mt-0.5 grid size-8 shrink-0 place-items-center rounded-full",
        icon === "alert" ? "bg-[#fde8e7] text-danger" : "bg-brand-soft text-brand",
      )}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path d={ICON_PATHS[icon]} strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}
