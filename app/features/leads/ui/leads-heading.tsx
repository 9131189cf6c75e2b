import { Button } from "#app/components/ui/button.tsx";
import { type ListView, viewParams } from "./lead-list-url.ts";

/** The list's heading, and the CSV export of the whole view (which says whether spam is in it). */
export function LeadsHeading({ view, total }: { view: ListView; total: number }) {
  const exportQuery = viewParams(view).toString();
  const spamNote =
    view.spam === "only" ? "held spam only" : view.spam === "include" ? "spam included" : "spam not included";
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <h2 id="leads-heading" className="text-2xl font-bold tracking-tight">
        Demo Requests
      </h2>
      {total > 0 ? (
        <div className="flex items-center gap-3">
          <span className="text-sm text-ink-muted">CSV: {spamNote}</span>
          <Button asChild variant="outline" size="sm">
            {/* SPEC section 7: opened in a new tab; the server answers with a CSV attachment. */}
            <a
              href={`/api/admin/leads/export${exportQuery ? `?${exportQuery}` : ""}`}
              target="_blank"
              rel="noopener"
            >
              Export to CSV
            </a>
          </Button>
        </div>
      ) : null}
    </div>
  );
}
