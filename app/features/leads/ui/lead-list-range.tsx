import { Link } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { type ListView, listHref, PAGE_SIZES } from "./lead-list-url.ts";

/** Which leads of how many the page shows, and links to show more or fewer a page. */
export function LeadListRange({
  view,
  page,
  pageSize,
  shown,
  total,
}: {
  view: ListView;
  page: number;
  pageSize: number;
  /** How many leads this page holds. */
  shown: number;
  total: number;
}) {
  const first = (page - 1) * pageSize + 1;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-ink-muted">
        Showing {first}–{first + shown - 1} of {total}
      </p>
      <nav aria-label="Leads per page" className="flex items-center gap-1 text-sm">
        <span className="mr-1 text-ink-muted">Per page:</span>
        {PAGE_SIZES.map((size) => (
          <Link
            key={size}
            to={listHref(DASHBOARD_PATH, { ...view, pageSize: size })}
            aria-current={size === pageSize ? "page" : undefined}
            className={
              size === pageSize
                ? "rounded-md bg-brand px-2.5 py-1 font-semibold text-white"
                : "rounded-md px-2.5 py-1 font-semibold text-brand hover:bg-brand-soft"
            }
          >
            {size}
          </Link>
        ))}
      </nav>
    </div>
  );
}
