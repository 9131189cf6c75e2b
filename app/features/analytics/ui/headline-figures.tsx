import { cn } from "#app/lib/cn.ts";
import type { Headline } from "../analytics-report.ts";
import { type Change, countChange, formatCount, formatRate, rateChange } from "./report-format.ts";

const ARROWS: Record<Change["direction"], string> = { up: "▲", down: "▼", same: "", new: "" };

function Figure({
  label,
  value,
  change,
  hint,
}: {
  label: string;
  value: string;
  change: Change;
  hint?: string;
}) {
  return (
    <div className="rounded-xl border border-line bg-white px-4 py-3 shadow-sm">
      <dt className="text-sm font-semibold text-ink-muted">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight tabular-nums sm:text-3xl">{value}</dd>
      <dd
        className={cn(
          "mt-0.5 text-sm font-semibold",
          change.direction === "up" && "text-success",
          change.direction === "down" && "text-danger",
          (change.direction === "same" || change.direction === "new") && "text-ink-muted",
        )}
      >
        {ARROWS[change.direction] ? <span aria-hidden="true">{ARROWS[change.direction]} </span> : null}
        {change.text}
        <span className="font-normal text-ink-muted"> vs previous period</span>
      </dd>
      {hint ? <dd className="mt-0.5 text-xs text-ink-muted">{hint}</dd> : null}
    </div>
  );
}

/** Visitors, page views, leads and conversion, each with its change against the previous period. */
export function HeadlineFigures({ current, previous }: { current: Headline; previous: Headline }) {
  return (
    <section aria-labelledby="headline-heading" className="grid gap-2">
      <h2 id="headline-heading" className="sr-only">
        Headline figures
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure
          label="Visitors"
          value={formatCount(current.visitors)}
          change={countChange(current.visitors, previous.visitors)}
          hint="unique per day, added up"
        />
        <Figure
          label="Page views"
          value={formatCount(current.pageviews)}
          change={countChange(current.pageviews, previous.pageviews)}
        />
        <Figure
          label="Leads"
          value={formatCount(current.leads)}
          change={countChange(current.leads, previous.leads)}
          hint={`from the website, spam left out${current.outsideLeads > 0 ? ` · ${formatCount(current.outsideLeads)} more from outside it` : ""}`}
        />
        <Figure
          label="Conversion rate"
          value={current.visitors > 0 ? formatRate(current.conversionRate) : "—"}
          change={
            previous.visitors === 0
              ? countChange(current.visitors > 0 ? 1 : 0, 0)
              : rateChange(current.conversionRate, previous.conversionRate)
          }
          hint="website leads ÷ visitors"
        />
      </dl>
    </section>
  );
}
