import { DataTable } from "#app/components/ui/data-table.tsx";
import type { Granularity, SeriesPoint } from "../analytics-report.ts";
import { formatCount, formatDay, formatPoint, formatRange } from "./report-format.ts";

// Visitors and leads over time, drawn on the server: two bar charts on one time axis (leads are
// far fewer than visitors, so each has its own scale), named by a summary a screen reader reads,
// with the same numbers as a table under "Show as table". The SVGs stretch to any width; their
// labels are HTML, so they stay readable on a phone.

const BAR_WIDTH = 10;
const HEIGHT = 100;

function peak(series: SeriesPoint[], key: "visitors" | "leads"): SeriesPoint | undefined {
  let best: SeriesPoint | undefined;
  for (const point of series) if (point[key] > 0 && (!best || point[key] > best[key])) best = point;
  return best;
}

/** What the chart shows, in words: its name for assistive technology. */
export function chartSummary(
  series: SeriesPoint[],
  granularity: Granularity,
  key: "visitors" | "leads",
  from: string,
  to: string,
): string {
  const what = key === "visitors" ? "Visitors" : "Leads";
  const per = granularity === "hour" ? `per hour on ${formatDay(from)}` : `per day, ${formatRange(from, to)}`;
  const best = peak(series, key);
  if (!best) return `${what} ${per}: none.`;
  const total = series.reduce((sum, point) => sum + point[key], 0);
  const at = granularity === "hour" ? `at ${formatPoint(best.start)}` : `on ${formatPoint(best.start)}`;
  const sum = key === "visitors" && granularity === "hour" ? "" : `${formatCount(total)} in all, `;
  return `${what} ${per}: ${sum}most ${at} (${formatCount(best[key])}).`;
}

function Bars({
  series,
  granularity,
  keyName,
  height,
  fill,
  summary,
}: {
  series: SeriesPoint[];
  granularity: Granularity;
  keyName: "visitors" | "leads";
  height: string;
  fill: string;
  summary: string;
}) {
  const max = Math.max(1, ...series.map((point) => point[keyName]));
  const gap = series.length <= 62 ? BAR_WIDTH * 0.2 : 0;
  return (
    <div className="grid grid-cols-[3.5rem_1fr] gap-2">
      <div
        className="flex flex-col justify-between text-right text-xs text-ink-muted tabular-nums"
        aria-hidden="true"
      >
        <span>{formatCount(max)}</span>
        <span>0</span>
      </div>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${series.length * BAR_WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className={`${height} w-full overflow-visible border-b border-l border-line`}
      >
        {series.map((point, index) => {
          const value = point[keyName];
          // A day with any visit shows, however small next to the busiest.
          const barHeight = value > 0 ? Math.max(1.5, (value / max) * HEIGHT) : 0;
          return (
            <rect
              key={point.start}
              x={index * BAR_WIDTH + gap / 2}
              y={HEIGHT - barHeight}
              width={BAR_WIDTH - gap}
              height={barHeight}
              className={fill}
            >
              {/* A pointer's tooltip on the visitors' bars only: the table below has every number. */}
              {keyName === "visitors" ? (
                <title>{`${formatPoint(point.start)}${granularity === "hour" ? " UTC" : ""}: ${formatCount(value)} visitors, ${formatCount(point.leads)} leads`}</title>
              ) : null}
            </rect>
          );
        })}
      </svg>
    </div>
  );
}

export function VisitsChart({
  series,
  granularity,
  from,
  to,
}: {
  series: SeriesPoint[];
  granularity: Granularity;
  from: string;
  to: string;
}) {
  const first = series[0];
  const middle = series[Math.floor(series.length / 2)];
  const last = series.at(-1);
  const label = (point: SeriesPoint | undefined) =>
    point ? (granularity === "hour" ? formatPoint(point.start) : formatDay(point.start)) : "";
  return (
    <div className="mt-4 grid gap-3">
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-brand" />
          Visitors {granularity === "hour" ? "per hour" : "per day"}
        </span>
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-success" />
          Leads from the website
        </span>
        <span className="text-ink-muted">Times in UTC</span>
      </p>
      <Bars
        series={series}
        granularity={granularity}
        keyName="visitors"
        height="h-40"
        fill="fill-brand"
        summary={chartSummary(series, granularity, "visitors", from, to)}
      />
      <Bars
        series={series}
        granularity={granularity}
        keyName="leads"
        height="h-16"
        fill="fill-success"
        summary={chartSummary(series, granularity, "leads", from, to)}
      />
      <div className="ml-[4rem] flex justify-between gap-2 text-xs text-ink-muted" aria-hidden="true">
        <span>{label(first)}</span>
        {series.length > 2 ? <span className="hidden sm:inline">{label(middle)}</span> : null}
        <span>{series.length > 1 ? label(last) : ""}</span>
      </div>
      <details className="group">
        <summary className="cursor-pointer font-semibold text-brand underline underline-offset-2">
          Show as table
        </summary>
        <div className="mt-3 max-h-96 overflow-y-auto">
          <DataTable
            columns={[granularity === "hour" ? "Hour (UTC)" : "Day", "Visitors", "Page views", "Leads"]}
          >
            {series.map((point) => (
              <tr key={point.start} className="border-t border-line">
                <th scope="row" className="px-4 py-2 font-normal whitespace-nowrap">
                  {granularity === "hour" ? formatPoint(point.start) : formatDay(point.start)}
                </th>
                <td className="px-4 py-2 tabular-nums">{formatCount(point.visitors)}</td>
                <td className="px-4 py-2 tabular-nums">{formatCount(point.pageviews)}</td>
                <td className="px-4 py-2 tabular-nums">{formatCount(point.leads)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      </details>
    </div>
  );
}
