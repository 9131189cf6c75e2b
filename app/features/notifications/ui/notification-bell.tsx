import { Link, useLocation } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { type BellView, MarkAllRead, NOTIFICATIONS_PATH, NotificationItems } from "./notification-items.tsx";

// Issue 35: the bell in the back office's frame, with the unread count. A <details> (marked as one
// of the shell's menus): it opens without JavaScript too, listing the newest few, each opening its
// page and marked read; "See all" goes to /admin/notifications.

export function NotificationBell({ view, placement }: { view: BellView; placement: "sidebar" | "top" }) {
  const { pathname, search } = useLocation();
  const label = view.unread > 0 ? `Notifications, ${view.unread} unread` : "Notifications";
  const sidebar = placement === "sidebar";
  return (
    <details data-shell-menu="" data-bell className={cn("relative", sidebar && "w-full")}>
      <summary
        title={label}
        className={cn(
          "relative flex cursor-pointer list-none items-center gap-3 rounded-md text-sm font-medium text-ink hover:bg-surface-muted [&::-webkit-details-marker]:hidden",
          sidebar
            ? "min-h-10 px-3 group-data-[collapsed]/side:justify-center group-data-[collapsed]/side:px-0"
            : "size-11 justify-center",
        )}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
          className="size-5 shrink-0"
        >
          <path d="M5 8a5 5 0 0 1 10 0c0 4 1.5 5.5 1.5 5.5h-13S5 12 5 8ZM8.5 16.5a1.6 1.6 0 0 0 3 0" />
        </svg>
        <span className={sidebar ? "group-data-[collapsed]/side:sr-only" : "sr-only"}>
          Notifications
          {view.unread > 0 ? <span className="sr-only">, {view.unread} unread</span> : null}
        </span>
        {view.unread > 0 ? (
          <span
            aria-hidden="true"
            className={cn(
              "grid h-5 min-w-5 place-items-center rounded-full bg-danger px-1 text-xs font-bold tabular-nums text-white",
              sidebar
                ? "ml-auto group-data-[collapsed]/side:absolute group-data-[collapsed]/side:-top-0.5 group-data-[collapsed]/side:right-0.5 group-data-[collapsed]/side:ml-0"
                : "absolute top-0.5 right-0.5",
            )}
          >
            {view.unread > 99 ? "99+" : view.unread}
          </span>
        ) : null}
      </summary>
      <div
        className={cn(
          "z-40 overflow-hidden rounded-lg border border-line bg-white shadow-lg",
          sidebar
            ? "absolute bottom-0 left-full ml-4 w-96 max-w-[calc(100vw-6rem)]"
            : "fixed inset-x-2 top-14 sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96",
        )}
      >
        <div className="flex items-center justify-between gap-3 border-b border-line px-4 py-2">
          <h2 className="text-base font-semibold">Notifications</h2>
          {view.unread > 0 ? <MarkAllRead next={pathname + search} /> : null}
        </div>
        <div className="max-h-[min(28rem,calc(100dvh-10rem))] overflow-y-auto">
          {view.items.length > 0 ? (
            <NotificationItems items={view.items} next={pathname + search} />
          ) : (
            <p className="px-4 py-8 text-center text-sm text-ink-muted">You are all caught up.</p>
          )}
        </div>
        <Link
          to={NOTIFICATIONS_PATH}
          className="block border-t border-line px-4 py-3 text-center text-sm font-semibold text-brand hover:bg-surface-muted"
        >
          See all notifications
        </Link>
      </div>
    </details>
  );
}
