import { Link } from "react-router";

export type Crumb = { label: string; to?: string };

/**
 * A breadcrumb trail; the last crumb is the current page and is not a link. `inverse` (the default)
 * is for the navy band, otherwise it is for a light background.
 */
export function Breadcrumb({ items, inverse = true }: { items: Crumb[]; inverse?: boolean }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className={`flex flex-wrap items-center gap-2 ${inverse ? "text-slate-200" : "text-ink-muted"}`}>
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={item.label} className="flex items-center gap-2">
              {item.to && !last ? (
                <Link
                  to={item.to}
                  className={`underline-offset-4 hover:underline ${inverse ? "hover:text-white" : "hover:text-brand"}`}
                >
                  {item.label}
                </Link>
              ) : (
                <span
                  aria-current={last ? "page" : undefined}
                  className={inverse ? "text-white" : "text-ink"}
                >
                  {item.label}
                </span>
              )}
              {last ? null : <span aria-hidden="true">/</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
