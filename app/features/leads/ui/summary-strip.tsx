import { formatDuration } from "./lead-list-url.ts";

export type SummaryView = {
  newToday: number;
  new7Days: number;
  new30Days: number;
  byStatus: Record<string, number>;
  speedToLead: { medianMs: number | null; responded: number; waiting: number };
};

function Stat({ label, value, title }: { label: string; value: string; title?: string }) {
  return (
    <div className="flex items-baseline gap-1.5 whitespace-nowrap" title={title}>
      <dt className="text-ink-muted">{label}</dt>
      <dd className="font-semibold text-ink tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * The dashboard's summary in one line above the list: new leads and speed to lead (the pipeline by
 * status is the status views' counts). On a phone it wraps rather than scroll.
 */
export function SummaryStrip({ summary }: { summary: SummaryView }) {
  const { speedToLead } = summary;
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="sr-only">
        Summary
      </h2>
      <dl className="flex flex-wrap items-baseline gap-x-5 gap-y-1 text-sm">
        <Stat label="New today" value={String(summary.newToday)} title="Since midnight UTC" />
        <Stat label="Last 7 days" value={String(summary.new7Days)} />
        <Stat label="Last 30 days" value={String(summary.new30Days)} />
        <Stat
          label="Speed to lead"
          value={speedToLead.medianMs === null ? "—" : formatDuration(speedToLead.medianMs)}
          title="Median time to the first status change, last 30 days"
        />
        <Stat
          label="Waiting"
          value={String(speedToLead.waiting)}
          title="Leads of the last 30 days with no status change yet"
        />
      </dl>
    </section>
  );
}
