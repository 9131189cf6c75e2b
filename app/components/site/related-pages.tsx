import { Link } from "react-router";
import { contentPages } from "#app/lib/site/navigation.ts";
import { normalizePath, useCurrentPath } from "#app/lib/use-current-path.ts";

/** SPEC section 1: lists the other content pages and omits the current one. */
export function RelatedPages({ currentPath }: { currentPath?: string }) {
  const locationPath = useCurrentPath();
  const current = currentPath ? normalizePath(currentPath) : locationPath;
  const pages = contentPages.filter((page) => page.to !== current);
  return (
    <section aria-labelledby="related-pages" className="border-t border-line bg-surface-muted">
      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6">
        <h2 id="related-pages" className="text-2xl font-bold">
          Related pages
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {pages.map((page) => (
            <li key={page.to}>
              <Link
                to={page.to}
                className="block h-full rounded-lg border border-line bg-white p-5 transition-shadow hover:shadow-md"
              >
                <span className="font-semibold text-brand">{page.title}</span>
                <span className="mt-2 block text-sm leading-6 text-ink-muted">{page.summary}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
