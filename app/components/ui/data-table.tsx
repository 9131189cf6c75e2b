import type { ReactNode } from "react";

/**
 * The back office's table frame: column headers and a body of rows the caller renders. It scrolls
 * sideways on a phone. NOTE: `relative` makes the frame the containing block of sr-only text in the
 * cells, which would otherwise sit at the table's far edge and widen the whole page.
 */
export function DataTable({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-line bg-white shadow-sm">
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
    </div>
  );
}
