import { Link } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { LEAD_STATUS_OPTIONS, statusBadgeClass, statusLabel } from "./lead-format.ts";
import { formatDuration } from "./lead-list-url.ts";

export type SummaryView = {
  newToday: number;
  new7Days: number;
  new30Days: number;
  byStatus: Record<string, number>;
  speedToLead: { medianMs: number | null; responded: number; waiting: number };
};

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-xl border border-line bg-white px-4 py-3 shadow-sm">
      <dt className="text-sm font-semibold text-ink-muted">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight tabular-nums">{value}</dd>
      {hint ? <dd className="mt-0.5 text-xs text-ink-muted">{hint}</dd> : null}
    </div>
  );
}

/** The dashboard's summary strip: new leads, speed to lead, and the pipeline by status. */
export function SummaryStrip({
  summary,
  statusHref,
}: {
  summary: SummaryView;
  statusHref: (status: string) => string;
}) {
  const { speedToLead } = summary;
  const total = LEAD_STATUS_OPTIONS.reduce((sum, status) => sum + (summary.byStatus[status] ?? 0), 0);
  return (
    <section aria-labelledby="summary-heading" className="grid gap-3">
      <h2 id="summary-heading" className="sr-only">
        Summary
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="New today" value={String(summary.newToday)} hint="since midnight UTC" />
        <Stat label="Last 7 days" value={String(summary.new7Days)} />
        <Stat label="Last 30 days" value={String(summary.new30Days)} />
        <Stat
          label="Speed to lead"
          value={speedToLead.medianMs === null ? "—" : formatDuration(speedToLead.medianMs)}
          hint={`median to first status change, 30 days · ${speedToLead.waiting} waiting`}
        />
      </dl>
      <div className="rounded-xl border border-line bg-white px-4 py-3 shadow-sm">
        <p className="text-sm font-semibold text-ink-muted">Pipeline ({total} leads)</p>
        <ul className="mt-2 flex flex-wrap gap-2">
          {LEAD_STATUS_OPTIONS.map((status) => (
            <li key={status}>
              <Link
                to={statusHref(status)}
                className={cn(
                  "inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold hover:underline",
                  statusBadgeClass(status),
                )}
              >
                {statusLabel(status)}
                <span className="tabular-nums">{summary.byStatus[status] ?? 0}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
