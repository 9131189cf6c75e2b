import { useEffect } from "react";
import { Link, useNavigate } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { isTyping } from "./list-shortcuts.tsx";

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

/** j and k step to the next and previous lead, as they move through the list itself. */
function useStepKeys(place: ListPlace) {
  const navigate = useNavigate();
  const { previous, next } = place;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target))
        return;
      if (document.querySelector("[role=dialog],[role=alertdialog]")) return;
      const target = event.key === "j" ? next : event.key === "k" ? previous : null;
      if (!target) return;
      event.preventDefault();
      navigate(target);
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [navigate, previous, next]);
}

export function LeadRecordNav({ place }: { place: ListPlace }) {
  const inList = place.total !== null;
  useStepKeys(place);
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
            <Link to={place.previous} className={STEP} rel="prev" aria-keyshortcuts="k">
              <span aria-hidden="true">‹</span> Previous<span className="sr-only"> lead</span>
            </Link>
          ) : (
            <span aria-disabled="true" className={cn(STEP, "cursor-not-allowed text-ink-muted opacity-60")}>
              <span aria-hidden="true">‹</span> Previous<span className="sr-only"> lead</span>
            </span>
          )}
          {place.next ? (
            <Link to={place.next} className={STEP} rel="next" aria-keyshortcuts="j">
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
