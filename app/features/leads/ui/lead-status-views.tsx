import { Link } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { LEAD_STATUS_OPTIONS, statusLabel } from "./lead-format.ts";
import { type ListView, listHref } from "./lead-list-url.ts";

/** Counts for the views: leads by status (spam held out) and held spam; null when unknown. */
export type ViewCounts = { byStatus: Record<string, number>; heldSpam: number } | null;

/** The views above the table: every lead, one status each, and the spam review, each with its count. */
function views(counts: ViewCounts): { label: string; count: number | null; view: ListView }[] {
  const all = counts
    ? LEAD_STATUS_OPTIONS.reduce((sum, status) => sum + (counts.byStatus[status] ?? 0), 0)
    : null;
  return [
    { label: "All", count: all, view: {} },
    ...LEAD_STATUS_OPTIONS.map((status) => ({
      label: statusLabel(status),
      count: counts ? (counts.byStatus[status] ?? 0) : null,
      view: { status },
    })),
    { label: "Spam", count: counts?.heldSpam ?? null, view: { spam: "only" } },
  ];
}

const isView = (view: ListView, current: ListView) =>
  view.status === current.status && (view.spam ?? "exclude") === (current.spam ?? "exclude");

/**
 * Links that switch the status view, keeping its other filters, as one segmented control. On a
 * phone the strip scrolls sideways inside itself rather than taking several rows.
 */
export function LeadStatusViews({ view, counts }: { view: ListView; counts: ViewCounts }) {
  return (
    <nav
      aria-label="Filter leads by status"
      className="relative -mx-1 max-w-full min-w-0 overflow-x-auto px-1 py-0.5"
    >
      <ul className="inline-flex min-w-max gap-0.5 rounded-lg border border-line bg-surface-muted p-0.5">
        {views(counts).map((item) => {
          const active = isView(item.view, view);
          return (
            <li key={item.label}>
              <Link
                to={listHref(DASHBOARD_PATH, { ...view, status: item.view.status, spam: item.view.spam })}
                aria-current={active ? "page" : undefined}
                className={
                  active
                    ? "inline-block h-8 rounded-md bg-white px-3 text-sm leading-8 font-semibold whitespace-nowrap text-ink shadow-sm"
                    : "inline-block h-8 rounded-md px-3 text-sm leading-8 font-semibold whitespace-nowrap text-ink-muted hover:bg-white/70 hover:text-ink"
                }
              >
                {/* Inline text, so the link is read (and named) as it shows: "Spam (3)". */}
                {item.label}
                {item.count === null ? null : (
                  <>
                    {" "}
                    <span className="text-xs font-medium text-ink-muted tabular-nums">({item.count})</span>
                  </>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
