import { Link } from "react-router";
import { BOARD_PATH, DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { cn } from "#app/lib/cn.ts";
import { type ListView, listHref } from "./lead-list-url.ts";

/**
 * "List" or "Board" (issue 35): the same leads either way, so the switch keeps the view's search,
 * filters and saved view; the board has no sort or rows per page, the list keeps its own.
 */
export function LeadViewSwitch({ current, view }: { current: "list" | "board"; view: ListView }) {
  const items = [
    { key: "list", label: "List", to: listHref(DASHBOARD_PATH, view) },
    {
      key: "board",
      label: "Board",
      to: listHref(BOARD_PATH, {
        ...view,
        status: undefined,
        sort: undefined,
        order: undefined,
        pageSize: undefined,
      }),
    },
  ] as const;
  return (
    <nav aria-label="Layout" className="inline-flex shrink-0 rounded-lg border border-line bg-white p-0.5">
      {items.map((item) => (
        <Link
          key={item.key}
          to={item.to}
          aria-current={current === item.key ? "page" : undefined}
          className={cn(
            "inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-sm font-semibold",
            current === item.key ? "bg-brand text-white" : "text-brand hover:bg-brand-soft",
          )}
        >
          {item.key === "list" ? (
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 fill-current">
              <rect x="2" y="3" width="12" height="2" rx="1" />
              <rect x="2" y="7" width="12" height="2" rx="1" />
              <rect x="2" y="11" width="12" height="2" rx="1" />
            </svg>
          ) : (
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 fill-current">
              <rect x="1.5" y="2" width="3.5" height="12" rx="1" />
              <rect x="6.25" y="2" width="3.5" height="8" rx="1" />
              <rect x="11" y="2" width="3.5" height="10" rx="1" />
            </svg>
          )}
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
