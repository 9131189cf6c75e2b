import { Link } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { LEAD_STATUS_OPTIONS, statusLabel } from "./lead-format.ts";
import { type ListView, listHref } from "./lead-list-url.ts";

/** The views above the table: every lead, one status each, and the spam review with its count. */
function views(heldSpam: number | null): { label: string; view: ListView }[] {
  return [
    { label: "All", view: {} },
    ...LEAD_STATUS_OPTIONS.map((status) => ({ label: statusLabel(status), view: { status } })),
    { label: heldSpam === null ? "Spam" : `Spam (${heldSpam})`, view: { spam: "only" } },
  ];
}

const isView = (view: ListView, current: ListView) =>
  view.status === current.status && (view.spam ?? "exclude") === (current.spam ?? "exclude");

/** Links that switch the view, keeping its other filters; `heldSpam` is null when the count is unknown. */
export function LeadStatusViews({ view, heldSpam }: { view: ListView; heldSpam: number | null }) {
  return (
    <nav aria-label="Filter leads by status">
      <ul className="flex flex-wrap gap-2">
        {views(heldSpam).map((item) => {
          const active = isView(item.view, view);
          return (
            <li key={item.label}>
              <Link
                to={listHref(DASHBOARD_PATH, { ...view, status: item.view.status, spam: item.view.spam })}
                aria-current={active ? "page" : undefined}
                className={
                  active
                    ? "inline-flex h-9 items-center rounded-full bg-brand px-4 text-sm font-semibold text-white"
                    : "inline-flex h-9 items-center rounded-full border border-line bg-white px-4 text-sm font-semibold text-brand hover:bg-brand-soft"
                }
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
