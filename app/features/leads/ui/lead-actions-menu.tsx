import { Link } from "react-router";
import { DeleteLeadMenuItem } from "./delete-lead.tsx";
import { POPOVER_DETAILS } from "./use-popover-details.ts";

// Issue 35: the lead's less frequent actions, out of the way of the work, in one menu beside its name:
// a <details> panel, so it opens without JavaScript too; with it, Escape and a click outside close it
// (usePopoverDetails). Delete keeps its confirmation (a dialog, or the page's confirmation step).

const ITEM =
  "flex min-h-11 w-full items-center rounded-md px-3 text-left font-semibold hover:bg-surface-muted focus-visible:outline-3 focus-visible:-outline-offset-2 focus-visible:outline-brand";

export function LeadActionsMenu({
  lead,
  editHref,
  confirmDeleteHref,
  afterDelete,
}: {
  lead: { id: number; fullName: string };
  editHref: string;
  confirmDeleteHref: string;
  afterDelete: string;
}) {
  return (
    <details {...{ [POPOVER_DETAILS]: "" }} className="relative shrink-0" data-lead-actions>
      <summary className="inline-flex h-11 min-w-11 cursor-pointer list-none items-center justify-center gap-2 rounded-md border border-line bg-white px-3 font-semibold text-ink hover:bg-surface-muted focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand sm:px-4 [&::-webkit-details-marker]:hidden">
        {/* On a phone the button is its three dots beside the name; the words are still its name. */}
        <span className="max-sm:sr-only">More actions</span>
        <span aria-hidden="true" className="text-ink-muted max-sm:hidden">
          ▾
        </span>
        <span aria-hidden="true" className="text-xl leading-none sm:hidden">
          ⋯
        </span>
      </summary>
      <div className="absolute right-0 z-20 mt-2 grid w-56 gap-1 rounded-lg border border-line bg-white p-1.5 shadow-lg">
        <Link to={editHref} preventScrollReset className={ITEM}>
          Edit details
        </Link>
        <DeleteLeadMenuItem
          lead={lead}
          confirmHref={confirmDeleteHref}
          afterDelete={afterDelete}
          className={`${ITEM} text-danger hover:bg-danger/10`}
        />
      </div>
    </details>
  );
}
