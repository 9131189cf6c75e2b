import { Link } from "react-router";
import { cn } from "#app/lib/cn.ts";

/** Page numbers to show: the first, the last, and two either side of the current one; null is a gap. */
export function pageWindow(page: number, pageCount: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let n = 1; n <= pageCount; n++) {
    if (n === 1 || n === pageCount || Math.abs(n - page) <= 2) pages.push(n);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

const itemClass =
  "inline-flex h-10 min-w-10 items-center justify-center rounded-md border px-3 text-sm font-semibold";

/** SPEC section 9: numbered pages with Previous and Next, as plain links (they work without JavaScript). */
export function Pagination({
  page,
  pageCount,
  hrefFor,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  const edge = (label: "Previous" | "Next", target: number, enabled: boolean) =>
    enabled ? (
      <Link
        to={hrefFor(target)}
        className={cn(itemClass, "border-line bg-white text-brand hover:bg-brand-soft")}
      >
        {label}
      </Link>
    ) : (
      <span aria-disabled="true" className={cn(itemClass, "border-line bg-surface-muted text-ink-muted")}>
        {label}
      </span>
    );
  return (
    <nav aria-label="Pagination" className="mt-6">
      <ul className="flex flex-wrap items-center gap-2">
        <li>{edge("Previous", page - 1, page > 1)}</li>
        {pageWindow(page, pageCount).map((n, index) =>
          n === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-ink-muted">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={hrefFor(n)}
                aria-label={`Page ${n}`}
                aria-current={n === page ? "page" : undefined}
                className={cn(
                  itemClass,
                  n === page
                    ? "border-brand bg-brand text-white"
                    : "border-line bg-white text-brand hover:bg-brand-soft",
                )}
              >
                {n}
              </Link>
            </li>
          ),
        )}
        <li>{edge("Next", page + 1, page < pageCount)}</li>
      </ul>
    </nav>
  );
}
