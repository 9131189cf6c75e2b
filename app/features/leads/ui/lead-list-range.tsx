import { Form } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { PAGE_SIZES } from "./lead-list-url.ts";

/**
 * Which leads of how many the page shows, and the rows per page: a choice kept for the person
 * (issue 35), so its buttons post (`intent=page-size`) to the page's action, which keeps it and
 * answers with the list at that size.
 */
export function LeadListRange({
  action,
  page,
  pageSize,
  shown,
  total,
}: {
  /** The page's URL (with its query). */
  action: string;
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
      <Form
        method="post"
        action={action}
        aria-label="Leads per page"
        className="flex items-center gap-1 text-sm"
      >
        <input type="hidden" name="intent" value="page-size" />
        <span className="mr-1 text-ink-muted">Per page:</span>
        {PAGE_SIZES.map((size) => (
          <button
            key={size}
            type="submit"
            name="pageSize"
            value={size}
            aria-pressed={size === pageSize}
            className={cn(
              "rounded-md px-2.5 py-1 font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand",
              size === pageSize ? "bg-brand text-white" : "text-brand hover:bg-brand-soft",
            )}
          >
            {size}
          </button>
        ))}
      </Form>
    </div>
  );
}
