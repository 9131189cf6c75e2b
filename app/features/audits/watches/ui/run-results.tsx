import type { ReactNode } from "react";
import type { AuditResult, PerformanceResult } from "../../audit-types.ts";
import { TlsResult } from "../../tls/tls-result.tsx";
import type { TlsCheckResult } from "../../tls/tls-types.ts";
import { AuditIssues, AuditSummary } from "../../ui/audit-details.tsx";
import { PerformanceCard } from "../../ui/performance-card.tsx";
import type { RunDetail } from "../watch-store.server.ts";
import { type CheckOutcome, WATCH_CHECK_LABELS, type WatchCheck } from "../watch-types.ts";
import { clsText, dash, msText, RUN_STATUS_TEXT, whenText } from "./watch-format.ts";

function Failed({ check, outcome }: { check: WatchCheck; outcome: Extract<CheckOutcome, { ok: false }> }) {
  return (
    <div className="rounded-lg border border-danger bg-red-50 p-4" data-testid={`run-${check}-failed`}>
      <p className="font-semibold text-danger">
        The {WATCH_CHECK_LABELS[check].toLowerCase()} did not complete.
      </p>
      <p className="mt-1 leading-6 break-words">{outcome.error}</p>
    </div>
  );
}

function Numbers({ items }: { items: readonly [string, string][] }) {
  return (
    <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-line p-4">
          <dt className="text-sm font-semibold text-ink-muted">{label}</dt>
          <dd className="mt-1 text-lg font-bold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One check's part of a run: its heading, then what it found or why it did not complete. */
function CheckSection<C extends WatchCheck>({
  check,
  title,
  outcome,
  children,
}: {
  check: C;
  title: string;
  outcome: CheckOutcome<C> | undefined;
  children: (found: Extract<CheckOutcome<C>, { ok: true }>) => ReactNode;
}) {
  if (!outcome) return null;
  return (
    <section aria-labelledby={`run-${check}`} className="grid gap-4">
      <h3 id={`run-${check}`} className="text-lg font-semibold">
        {title}
      </h3>
      {outcome.ok ? children(outcome) : <Failed check={check} outcome={outcome} />}
    </section>
  );
}

/** One run's checks, each as its own page shows it (the security summary, the performance card…). */
export function RunResults({ run }: { run: RunDetail }) {
  const { security, performance, lab, tls } = run.results;
  return (
    <div className="grid gap-6">
      <p className="text-ink-muted">
        Run {run.id}, {run.trigger === "manual" ? "run by hand" : "on schedule"}, finished{" "}
        {whenText(run.finishedAt)}: {RUN_STATUS_TEXT[run.status].toLowerCase()}.
      </p>
      <CheckSection check="security" title="Security audit" outcome={security}>
        {({ result }) => (
          <>
            <AuditSummary
              headingLevel={4}
              audit={{
                ...(result as AuditResult),
                id: run.id,
                date: whenText(run.finishedAt),
                isoDate: run.finishedAt,
              }}
            />
            {/* Every issue, folded: the summary above already leads with the top recommendations. */}
            <details className="rounded-lg border border-line p-4">
              <summary className="cursor-pointer font-semibold">
                All {(result as AuditResult).issues.length} issues
              </summary>
              <div className="mt-4">
                <AuditIssues headingLevel={4} audit={result as AuditResult} />
              </div>
            </details>
          </>
        )}
      </CheckSection>
      {performance ? (
        performance.ok || performance.result ? (
          // A check that got no answer still has its card: "Error: …" and the details.
          <PerformanceCard
            result={performance.result as PerformanceResult}
            checkedAt={whenText(run.finishedAt)}
          />
        ) : (
          <Failed check="performance" outcome={performance} />
        )
      ) : null}
      <CheckSection check="lab" title="Lab check" outcome={lab}>
        {({ summary }) => (
          <Numbers
            items={[
              ["Score", String(summary.score)],
              ["LCP", summary.lcp === null ? dash : msText(summary.lcp)],
              ["CLS", summary.cls === null ? dash : clsText(summary.cls)],
              ["TBT", summary.tbt === null ? dash : msText(summary.tbt)],
            ]}
          />
        )}
      </CheckSection>
      <CheckSection check="tls" title="TLS certificate" outcome={tls}>
        {({ summary, result }) => (
          <>
            <Numbers
              items={[
                ["Days left", summary.daysLeft === null ? dash : String(summary.daysLeft)],
                ["Verifies", summary.verified ? "Yes" : "No"],
              ]}
            />
            {/* The whole check, as the audit page's TLS card shows it. */}
            <TlsResult result={result as TlsCheckResult} />
          </>
        )}
      </CheckSection>
    </div>
  );
}
