import type { ReactNode } from "react";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { DataTable } from "#app/components/ui/data-table.tsx";

export type Column<T> = { label: string; cell: (row: T) => ReactNode };

/** Rows shown at once; the rest of the table's rows (up to the report's limit) open below. */
const SHOWN = 10;

function Rows<T>({ rows, columns, rowKey }: { rows: T[]; columns: Column<T>[]; rowKey: (row: T) => string }) {
  return rows.map((row) => (
    <tr key={rowKey(row)} className="border-t border-line">
      {columns.map((column, index) =>
        index === 0 ? (
          <th key={column.label} scope="row" className="max-w-72 min-w-32 px-4 py-2 font-normal break-words">
            {column.cell(row)}
          </th>
        ) : (
          <td key={column.label} className="px-4 py-2 whitespace-nowrap tabular-nums">
            {column.cell(row)}
          </td>
        ),
      )}
    </tr>
  ));
}

/** One of the report's tables in its card: the first rows, the others behind "Show all". */
export function ReportTable<T>({
  id,
  title,
  description,
  rows,
  columns,
  rowKey,
  empty,
}: {
  id: string;
  title: string;
  description?: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: string;
}) {
  const labels = columns.map((column) => column.label);
  return (
    <SectionCard id={id} title={title}>
      {description ? <p className="mt-1 text-sm text-ink-muted">{description}</p> : null}
      <div className="mt-4">
        {rows.length === 0 ? (
          <p className="text-ink-muted">{empty}</p>
        ) : (
          <DataTable label={`${title} table`} columns={labels}>
            <Rows rows={rows.slice(0, SHOWN)} columns={columns} rowKey={rowKey} />
          </DataTable>
        )}
        {rows.length > SHOWN ? (
          <details className="mt-3">
            <summary className="cursor-pointer font-semibold text-brand underline underline-offset-2">
              Show {rows.length - SHOWN} more
            </summary>
            <div className="mt-3">
              <DataTable label={`${title} table, more rows`} columns={labels}>
                <Rows rows={rows.slice(SHOWN)} columns={columns} rowKey={rowKey} />
              </DataTable>
            </div>
          </details>
        ) : null}
      </div>
    </SectionCard>
  );
}
