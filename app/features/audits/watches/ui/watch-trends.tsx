import { Link } from "react-router";
import { DataTable } from "#app/components/ui/data-table.tsx";
import { formatDate, formatDateTime } from "#app/lib/format-date.ts";
import { gradeRank } from "../watch-alerts.ts";
import { runPath } from "../watch-paths.ts";
import type { RunSummary } from "../watch-store.server.ts";
import type { WatchCheck } from "../watch-types.ts";
import { TrendChart } from "./trend-chart.tsx";
import { clsText, dash, msText } from "./watch-format.ts";

const GRADE_TICKS = [
  { value: gradeRank("F"), label: "F" },
  { value: gradeRank("C"), label: "C" },
  { value: gradeRank("B"), label: "B" },
  { value: gradeRank("A+"), label: "A+" },
];

/**
 * The watch's numbers over time: a chart per number its checks measure, then one table with every
 * run's numbers (the charts' data, for reading exactly and for screen readers), each run openable.
 */
export function WatchTrends({
  watchId,
  checks,
  runs,
}: {
  watchId: number;
  checks: readonly WatchCheck[];
  /** Newest first, as stored. */
  runs: readonly RunSummary[];
}) {
  const oldestFirst = [...runs].reverse();
  const at = (run: RunSummary) => formatDate(run.finishedAt);
  const series = (value: (run: RunSummary) => number | null) =>
    oldestFirst.map((run) => ({ at: at(run), value: value(run) }));
  const has = (check: WatchCheck) => checks.includes(check) || runs.some((run) => hasValue(run, check));
  // The table's columns: the run and when, then the numbers of the checks this watch runs (or ran).
  const orNone = (value: string | number | null) => (value === null ? dash : value);
  type Column = { label: string; check?: WatchCheck; value: (run: RunSummary) => string | number };
  const allColumns: Column[] = [
    { label: "Run", value: () => "" },
    { label: "Finished", value: () => "" },
    { label: "Grade", check: "security", value: (run) => orNone(run.securityGrade) },
    { label: "Score", check: "security", value: (run) => orNone(run.securityScore) },
    {
      label: "Status",
      check: "performance",
      value: (run) => (run.httpStatus === null ? dash : run.httpStatus || "No answer"),
    },
    {
      label: "Load time",
      check: "performance",
      value: (run) => (run.loadTimeMs === null ? dash : msText(run.loadTimeMs)),
    },
    { label: "Lab score", check: "lab", value: (run) => orNone(run.labScore) },
    { label: "LCP", check: "lab", value: (run) => (run.lcpMs === null ? dash : msText(run.lcpMs)) },
    { label: "CLS", check: "lab", value: (run) => (run.cls === null ? dash : clsText(run.cls)) },
    { label: "Days left", check: "tls", value: (run) => orNone(run.tlsDaysLeft) },
  ];
  const columns = allColumns.filter((column) => !column.check || has(column.check));
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 lg:grid-cols-2">
        {has("security") ? (
          <>
            <TrendChart
              id="trend-score"
              title="Security score"
              points={series((run) => run.securityScore)}
              format={(value) => String(Math.round(value))}
              min={0}
              max={100}
            />
            <TrendChart
              id="trend-grade"
              title="Security grade"
              points={series((run) => (run.securityGrade ? gradeRank(run.securityGrade) : null))}
              format={(value) =>
                ["F", "D-", "D", "D+", "C-", "C", "C+", "B-", "B", "B+", "A-", "A", "A+"][
                  Math.round(value)
                ] ?? ""
              }
              min={0}
              max={12}
              ticks={GRADE_TICKS}
            />
          </>
        ) : null}
        {has("performance") ? (
          <TrendChart
            id="trend-load"
            title="Load time"
            points={series((run) => run.loadTimeMs)}
            format={msText}
          />
        ) : null}
        {has("lab") ? (
          <>
            <TrendChart
              id="trend-lab"
              title="Lab score"
              points={series((run) => run.labScore)}
              format={(value) => String(Math.round(value))}
              min={0}
              max={100}
            />
            <TrendChart
              id="trend-lcp"
              title="Largest Contentful Paint"
              points={series((run) => run.lcpMs)}
              format={msText}
            />
            <TrendChart
              id="trend-cls"
              title="Cumulative Layout Shift"
              points={series((run) => run.cls)}
              format={clsText}
            />
          </>
        ) : null}
        {has("tls") ? (
          <TrendChart
            id="trend-days"
            title="Days left on the certificate"
            points={series((run) => run.tlsDaysLeft)}
            format={(value) => String(Math.round(value))}
          />
        ) : null}
      </div>
      <DataTable label="Trend table" columns={columns.map((column) => column.label)}>
        {runs.map((run) => (
          <tr key={run.id} className="border-t border-line">
            <td className="px-3 py-2 whitespace-nowrap">
              <Link
                to={runPath(watchId, run.id)}
                className="font-semibold text-brand underline underline-offset-2"
              >
                Run {run.id}
              </Link>
            </td>
            <td className="px-3 py-2 whitespace-nowrap">
              <time dateTime={run.finishedAt}>{formatDateTime(run.finishedAt)}</time>
            </td>
            {columns.slice(2).map((column) => (
              <td key={column.label} className="px-3 py-2 whitespace-nowrap tabular-nums">
                {column.value(run)}
              </td>
            ))}
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

function hasValue(run: RunSummary, check: WatchCheck): boolean {
  if (check === "security") return run.securityScore !== null;
  if (check === "performance") return run.loadTimeMs !== null;
  if (check === "lab") return run.labScore !== null;
  return run.tlsDaysLeft !== null;
}
