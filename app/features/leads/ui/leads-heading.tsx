import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { type ListView, viewParams } from "./lead-list-url.ts";

/** Where leads that do not come from the website enter (issue 23's intake pages). */
export const ADD_LEAD_PATH = "/admin/leads/new";
export const IMPORT_LEADS_PATH = "/admin/leads/import";

/**
 * The list's header: its heading and count, a lead added by hand or imported, and the CSV export of
 * the whole view (which says whether spam is in it; SPEC: only when there are leads).
 */
export function LeadsHeading({
  view,
  total,
  layoutSwitch,
}: {
  view: ListView;
  total: number;
  /** The "List" / "Board" switch (issue 35), beside the count. */
  layoutSwitch?: ReactNode;
}) {
  const exportQuery = viewParams(view).toString();
  const spamNote =
    view.spam === "only" ? "held spam only" : view.spam === "include" ? "spam included" : "spam not included";
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <h2 id="leads-heading" className="text-xl font-bold tracking-tight">
          Demo Requests
        </h2>
        <span className="text-base font-medium text-ink-muted tabular-nums">{total} matching</span>
        {layoutSwitch ? <div className="self-center sm:ml-2">{layoutSwitch}</div> : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {total > 0 ? (
          <>
            <span className="text-xs text-ink-muted max-sm:hidden">CSV: {spamNote}</span>
            <Button asChild variant="ghost" size="sm">
              {/* SPEC section 7: opened in a new tab; the server answers with a CSV attachment. */}
              <a
                href={`/api/admin/leads/export${exportQuery ? `?${exportQuery}` : ""}`}
                target="_blank"
                rel="noopener"
              >
                Export to CSV
              </a>
            </Button>
          </>
        ) : null}
        <Button asChild variant="outline" size="sm">
          <Link to={IMPORT_LEADS_PATH}>Import</Link>
        </Button>
        <Button asChild size="sm">
          <Link to={ADD_LEAD_PATH}>Add lead</Link>
        </Button>
      </div>
    </div>
  );
}
