import { SectionCard } from "#app/components/back-office/section-card.tsx";
import type { AnalyticsReport } from "../analytics-report.ts";
import { formatCount, formatRate, stepShares } from "./report-format.ts";

type Step = {
  label: string;
  value: number;
  /** The step it is a share of: the one before unless said. */
  of?: number;
};

/**
 * Visitors → viewed a page with a form → leads → booked a meeting, each step's share of the one
 * before; then the leads qualified or customer now, a share of the leads (a lead can qualify without
 * a meeting).
 */
export function Funnel({ funnel }: { funnel: AnalyticsReport["funnel"] }) {
  const steps: Step[] = [
    { label: "Visitors", value: funnel.visitors },
    { label: "Viewed a page with a form (/, /demo, /invest)", value: funnel.formPageVisitors },
    { label: "Sent a request (website leads)", value: funnel.leads },
    { label: "Booked a meeting", value: funnel.bookedMeeting },
    { label: "Qualified or customer now", value: funnel.qualified, of: 2 },
  ];
  const shares = stepShares(
    steps.map((step) => step.value),
    steps.map((step) => step.of),
  );
  return (
    <SectionCard id="funnel-heading" title="Funnel">
      <p className="mt-1 text-sm text-ink-muted">
        Each step's share is of the step before; qualified leads are a share of the leads. Leads count as they
        are today: a meeting booked after the period counts, a cancelled one does not.
      </p>
      <ol className="mt-4 grid gap-3">
        {steps.map((step, index) => {
          const base = index > 0 ? (step.of ?? index - 1) : undefined;
          const before = base === undefined ? undefined : steps[base]?.value;
          const share = shares[index] ?? null;
          return (
            <li key={step.label} className="grid gap-1">
              <p className="flex flex-wrap justify-between gap-x-4">
                <span className="font-semibold">{step.label}</span>
                <span className="tabular-nums">
                  {formatCount(step.value)}
                  {before !== undefined ? (
                    <span className="text-ink-muted">
                      {" "}
                      · {formatRate(share)} of {step.of === undefined ? "the step before" : "the leads"}
                    </span>
                  ) : null}
                </span>
              </p>
              {before !== undefined && step.value > before ? (
                // Leads sent through the API, or by visitors whose browser asks not to be counted,
                // have no page view: the step can outnumber the one before it.
                <p className="text-sm text-ink-muted">
                  More than the step before: some came through the API or from visitors not counted.
                </p>
              ) : null}
              <div className="h-3 rounded-full bg-surface-muted" aria-hidden="true">
                <div
                  className="h-3 rounded-full bg-brand"
                  style={{ width: `${Math.max(step.value > 0 ? 1 : 0, (share ?? 0) * 100)}%` }}
                />
              </div>
            </li>
          );
        })}
      </ol>
    </SectionCard>
  );
}
