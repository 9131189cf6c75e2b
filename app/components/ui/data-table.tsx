import type { ReactNode } from "react";

/**
 * The back office's table frame: column headers and a body of rows the caller renders. It scrolls
 * sideways on a phone, so it is a named region in the tab order: a keyboard user focuses it and
 * scrolls with the arrow keys (WCAG 2.1.1; axe's scrollable-region-focusable). It is focusable even
 * when it fits, as whether it scrolls is only known in the browser and the page works without
 * JavaScript. NOTE: `relative` makes the frame the containing block of sr-only text in the cells,
 * which would otherwise sit at the table's far edge and widen the whole page.
 */
export function DataTable({
  label,
  columns,
  children,
}: {
  /** The region's name, said when it takes focus ("Channels table"): unlike its card's, as axe wants landmarks told apart. */
  label: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
      tabIndex={0}
      className="relative overflow-x-auto rounded-xl border border-line bg-white shadow-sm focus-visible:outline-3 focus-visible:outline-offset-2"
    >
      <table className="w-full text-left text-sm">
        <thead className="bg-surface-muted">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-3 font-semibold whitespace-nowrap">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}
