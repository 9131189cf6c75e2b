import { DataTable } from "#app/components/ui/data-table.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { ScoreBadge } from "./audit-badges.tsx";
import { AuditDetailsDialog, AuditDetailsLink } from "./audit-details.tsx";
import { AUDIT_TEXT } from "./audit-texts.ts";
import type { AuditRow } from "./audit-view.ts";

const COLUMNS = ["Date", "URL", "Score", "Issues", "Actions"] as const;

/** The stored audits, newest first (SPEC section 2), or the empty state of SPEC section 8. */
export function AuditHistory({
  audits,
  detailsHref,
}: {
  audits: AuditRow[];
  /** Where 'View Details' goes without JavaScript. */
  detailsHref: (audit: AuditRow) => string;
}) {
  const hydrated = useHydrated();
  if (audits.length === 0) {
    return (
      <p className="rounded-xl border border-line bg-white px-6 py-12 text-center text-ink-muted">
        {AUDIT_TEXT.noAudits}
      </p>
    );
  }
  return (
    <DataTable label="Audit history table" columns={COLUMNS}>
      {audits.map((audit) => (
        <tr key={audit.id} className="border-t border-line align-middle" data-audit-id={audit.id}>
          <td className="px-4 py-3 whitespace-nowrap">
            <time dateTime={audit.isoDate}>{audit.date}</time>
          </td>
          <th scope="row" className="max-w-xs min-w-48 px-4 py-3 font-normal break-all">
            {audit.url}
          </th>
          <td className="px-4 py-3">
            <ScoreBadge score={audit.score} />
            <span className="sr-only"> out of 100, grade {audit.grade}</span>
          </td>
          <td className="px-4 py-3 tabular-nums">{audit.issues.length}</td>
          <td className="px-4 py-3">
            {hydrated ? (
              <AuditDetailsDialog audit={audit} />
            ) : (
              <AuditDetailsLink audit={audit} href={detailsHref(audit)} />
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
