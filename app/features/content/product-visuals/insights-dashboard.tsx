import { cn } from "#app/lib/cn.ts";
import { AppWindow, Chip, type ChipTone, ProductFigure, ScreenHeader } from "./product-frame.tsx";
import { sample } from "./sample-project.ts";

// The portfolio at a glance: a few figures, obligations falling due week by week, and risk flags.

const KPIS: { label: string; value: string; note: string; tone?: ChipTone }[] = [
  { label: "Live contracts", value: "148", note: "across 6 projects" },
  { label: "Retention held", value: "£1.26m", note: "£310k to release by June" },
  { label: "Due in 14 days", value: "9", note: "2 within 3 days", tone: "red" },
  { label: "Risk flags", value: "12", note: "4 uncapped", tone: "amber" },
];

const WEEKS = [
  { label: "13 Apr", count: 7 },
  { label: "20 Apr", count: 11 },
  { label: "27 Apr", count: 9 },
  { label: "4 May", count: 14 },
  { label: "11 May", count: 6 },
  { label: "18 May", count: 10 },
  { label: "25 May", count: 8 },
  { label: "1 Jun", count: 5 },
];
const PEAK = Math.max(...WEEKS.map((week) => week.count));

const CHART_SUMMARY = `Bar chart of obligations falling due per week over the next 8 weeks: ${WEEKS.map(
  (week) => `${week.count} in the week of ${week.label}`,
).join(", ")}.`;

/** Bars only: the labels are HTML below it, so they stay legible at any width. */
function ObligationsChart() {
  const height = 100;
  const slot = 40;
  return (
    <svg
      role="img"
      aria-label={CHART_SUMMARY}
      viewBox={`0 0 ${slot * WEEKS.length} ${height}`}
      preserveAspectRatio="none"
      className="block h-24 w-full"
    >
      {[25, 50, 75].map((y) => (
        <line
          key={y}
          x1="0"
          x2={slot * WEEKS.length}
          y1={y}
          y2={y}
          stroke="#d9e0ea"
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {WEEKS.map((week, index) => {
        const barHeight = Math.round((week.count / PEAK) * (height - 8));
        return (
          <rect
            key={week.label}
            x={index * slot + 9}
            y={height - barHeight}
            width={slot - 18}
            height={barHeight}
            rx="3"
            fill={index === 0 ? "#12355b" : week.count === PEAK ? "#f2a900" : "#8fb3d9"}
          />
        );
      })}
    </svg>
  );
}

const RISKS: { project: string; party: string; flag: string; level: string; tone: ChipTone }[] = [
  {
    project: "Canal Street Bridge",
    party: "NEC4 ECC Option A",
    flag: "Indirect loss not excluded",
    level: "High",
    tone: "red",
  },
  {
    project: "Harbour Road Depot",
    party: "Kestrel M&E",
    flag: "Liability uncapped",
    level: "High",
    tone: "red",
  },
  {
    project: "Elm Park Homes",
    party: "Drayton Roofing",
    flag: "Retention release overdue, £18,400",
    level: "Medium",
    tone: "amber",
  },
  {
    project: sample.projectShort,
    party: sample.subcontractorShort,
    flag: "Retention cut to 3% by side letter",
    level: "Low",
    tone: "grey",
  },
];

export function InsightsDashboardScreen({ className }: { className?: string }) {
  return (
    <AppWindow title="Portfolio · Insights" active="insights" className={className}>
      <ScreenHeader title="Portfolio insights" detail={`Northbank Build · ${sample.today}`}>
        <Chip tone="blue">All projects</Chip>
      </ScreenHeader>
      <div className="space-y-3 bg-surface-muted p-3">
        <dl className="grid grid-cols-2 gap-2 @2xl:grid-cols-4">
          {KPIS.map((kpi) => (
            <div key={kpi.label} className="rounded-lg bg-white px-3 py-2.5 ring-1 ring-line">
              <dt className="truncate text-xs font-medium text-ink-muted">{kpi.label}</dt>
              <dd className="mt-0.5 text-xl font-bold tracking-tight text-ink @lg:text-2xl">{kpi.value}</dd>
              <dd className="mt-1">
                {kpi.tone ? (
                  <Chip tone={kpi.tone}>{kpi.note}</Chip>
                ) : (
                  <span className="text-xs text-ink-muted">{kpi.note}</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
        <div className="grid grid-cols-1 gap-3 @3xl:grid-cols-2">
          <div className="rounded-lg bg-white px-3 py-2.5 ring-1 ring-line">
            <p className="flex flex-wrap items-baseline justify-between gap-x-2 text-xs">
              <span className="font-semibold text-ink">Obligations falling due, by week</span>
              <span className="text-ink-muted">Peak: {PEAK}, week of 4 May</span>
            </p>
            <div className="mt-3">
              <ObligationsChart />
              <div aria-hidden="true" className="mt-1 grid grid-cols-8 text-center text-xs text-ink-muted">
                {WEEKS.map((week, index) => (
                  <span
                    key={week.label}
                    className={cn("whitespace-nowrap", index % 2 === 1 && "invisible @md:visible")}
                  >
                    {week.label}
                  </span>
                ))}
              </div>
            </div>
          </div>
          <div className="rounded-lg bg-white px-3 py-2.5 ring-1 ring-line">
            <p className="text-xs font-semibold text-ink">Risk flags</p>
            <ul className="mt-1 divide-y divide-line">
              {RISKS.map((risk) => (
                <li key={risk.project} className="flex items-center justify-between gap-3 py-1.5">
                  <span className="min-w-0">
                    <span className="block truncate text-sm text-ink">{risk.flag}</span>
                    <span className="block truncate text-xs text-ink-muted">
                      {risk.project} · {risk.party}
                    </span>
                  </span>
                  <Chip tone={risk.tone}>{risk.level}</Chip>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </AppWindow>
  );
}

export function InsightsDashboardVisual({ className }: { className?: string }) {
  return (
    <ProductFigure
      className={className}
      caption="The insights dashboard across a portfolio: live contracts, retention held, notices due, obligations falling due by week and the risk flags to look at first."
    >
      <InsightsDashboardScreen />
    </ProductFigure>
  );
}
