import { Link } from "react-router";
import { cn } from "#app/lib/cn.ts";

// Issue 35: above a lead opened from the list, the way back to that list (its view, filters and page)
// and the lead before and after it there, with where it stands ("3 of 27").

export type ListPlace = {
  back: string;
  previous: string | null;
  next: string | null;
  position: number | null;
  total: number | null;
};

const STEP =
  "inline-flex h-9 items-center gap-1 rounded-md border border-line bg-white px-3 text-sm font-semibold text-ink hover:bg-surface-muted focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand";

export function LeadRecordNav({ place }: { place: ListPlace }) {
  const inList = place.total !== null;
  return (
    <nav aria-label="Lead list" className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
      <Link
        to={place.back}
        className="inline-flex items-center gap-1 font-semibold text-brand underline-offset-2 hover:underline"
        data-back-to-list
      >
        <span aria-hidden="true">←</span> Back to leads
      </Link>
      {inList ? (
        <div className="flex items-center gap-2">
          {place.position !== null ? (
            <span className="text-sm text-ink-muted" data-list-position>
              {place.position.toLocaleString("en-US")} of {(place.total ?? 0).toLocaleString("en-US")}
            </span>
          ) : null}
          {place.previous ? (
            <Link to={place.previous} className={STEP} rel="prev">
              <span aria-hidden="true">‹</span> Previous<span className="sr-only"> lead</span>
            </Link>
          ) : (
            <span aria-disabled="true" className={cn(STEP, "cursor-not-allowed text-ink-muted opacity-60")}>
              <span aria-hidden="true">‹</span> Previous<span className="sr-only"> lead</span>
            </span>
          )}
          {place.next ? (
            <Link to={place.next} className={STEP} rel="next">
              Next<span className="sr-only"> lead</span> <span aria-hidden="true">›</span>
            </Link>
          ) : (
            <span aria-disabled="true" className={cn(STEP, "cursor-not-allowed text-ink-muted opacity-60")}>
              Next<span className="sr-only"> lead</span> <span aria-hidden="true">›</span>
            </span>
          )}
        </div>
      ) : null}
    </nav>
  );
}
