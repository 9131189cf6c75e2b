import { DataTable } from "#app/components/ui/data-table.tsx";
import type { Granularity, SeriesPoint } from "../analytics-report.ts";
import { formatCount, formatDay, formatPoint, formatRange } from "./report-format.ts";

// Visitors and leads over time, drawn on the server: two bar charts on one time axis (leads are
// far fewer than visitors, so each has its own scale), named by a summary a screen reader reads,
// with the same numbers as a table under "Show as table". The SVGs stretch to any width; their
// labels are HTML, so they stay readable on a phone.

const BAR_WIDTH = 10;
const HEIGHT = 100;
/** Up to this many bars (two months of days, a day's hours), each bar is an element with a tooltip. */
const TOOLTIP_POINTS = 62;

const round = (value: number) => Math.round(value * 100) / 100;
/** A bar's height: a day with any visit shows, however small next to the busiest. */
const barOf = (value: number, max: number) => (value > 0 ? round(Math.max(1.5, (value / max) * HEIGHT)) : 0);

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
  const gap = series.length <= TOOLTIP_POINTS ? BAR_WIDTH * 0.2 : 0;
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
        {series.length <= TOOLTIP_POINTS ? (
          series.map((point, index) => {
            const bar = barOf(point[keyName], max);
            return (
              <rect
                key={point.start}
                x={index * BAR_WIDTH + gap / 2}
                y={HEIGHT - bar}
                width={BAR_WIDTH - gap}
                height={bar}
                className={fill}
              >
                {/* A pointer's tooltip on the visitors' bars: the table below has every number. */}
                {keyName === "visitors" ? (
                  <title>{`${formatPoint(point.start)}${granularity === "hour" ? " UTC" : ""}: ${formatCount(point.visitors)} visitors, ${formatCount(point.leads)} leads`}</title>
                ) : null}
              </rect>
            );
          })
        ) : (
          // A long period: every bar in one path (a year is 365 bars; one element each weighed
          // more than the rest of the page).
          <path
            className={fill}
            d={series
              .map((point, index) => {
                const bar = barOf(point[keyName], max);
                return bar > 0
                  ? `M${index * BAR_WIDTH} ${round(HEIGHT - bar)}h${BAR_WIDTH}v${round(bar)}h-${BAR_WIDTH}z`
                  : "";
              })
              .join("")}
          />
        )}
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
    <div className="mt-4 grid grid-cols-1 gap-3">
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
        {/* Cell styles from here, not on each of up to 731 rows' cells. */}
        <div className="mt-3 max-h-96 overflow-y-auto [&_tbody_td]:px-4 [&_tbody_td]:py-2 [&_tbody_td]:tabular-nums [&_tbody_th]:px-4 [&_tbody_th]:py-2 [&_tbody_th]:font-normal [&_tbody_th]:whitespace-nowrap [&_tbody_tr]:border-t [&_tbody_tr]:border-line">
          <DataTable
            label={granularity === "hour" ? "Visits by hour" : "Visits by day"}
            columns={[granularity === "hour" ? "Hour (UTC)" : "Day", "Visitors", "Page views", "Leads"]}
          >
            {series.map((point) => (
              <tr key={point.start}>
                <th scope="row">
                  {granularity === "hour" ? formatPoint(point.start) : formatDay(point.start)}
                </th>
                <td>{formatCount(point.visitors)}</td>
                <td>{formatCount(point.pageviews)}</td>
                <td>{formatCount(point.leads)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      </details>
    </div>
  );
}
