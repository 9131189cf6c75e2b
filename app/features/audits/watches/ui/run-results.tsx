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

/** One run's checks, each as its own page shows it (the security summary, the performance card…). */
export function RunResults({ run }: { run: RunDetail }) {
  const { security, performance, lab, tls } = run.results;
  return (
    <div className="grid gap-6">
      <p className="text-ink-muted">
        Run {run.id}, {run.trigger === "manual" ? "run by hand" : "on schedule"}, finished{" "}
        {whenText(run.finishedAt)}: {RUN_STATUS_TEXT[run.status].toLowerCase()}.
      </p>
      {security ? (
        <section aria-labelledby="run-security" className="grid gap-4">
          <h3 id="run-security" className="text-lg font-semibold">
            Security audit
          </h3>
          {security.ok ? (
            <>
              <AuditSummary
                headingLevel={4}
                audit={{
                  ...(security.result as AuditResult),
                  id: run.id,
                  date: whenText(run.finishedAt),
                  isoDate: run.finishedAt,
                }}
              />
              {/* Every issue, folded: the summary above already leads with the top recommendations. */}
              <details className="rounded-lg border border-line p-4">
                <summary className="cursor-pointer font-semibold">
                  All {(security.result as AuditResult).issues.length} issues
                </summary>
                <div className="mt-4">
                  <AuditIssues headingLevel={4} audit={security.result as AuditResult} />
                </div>
              </details>
            </>
          ) : (
            <Failed check="security" outcome={security} />
          )}
        </section>
      ) : null}
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
      {lab ? (
        <section aria-labelledby="run-lab" className="grid gap-4">
          <h3 id="run-lab" className="text-lg font-semibold">
            Lab check
          </h3>
          {lab.ok ? (
            <Numbers
              items={[
                ["Score", String(lab.summary.score)],
                ["LCP", lab.summary.lcp === null ? dash : msText(lab.summary.lcp)],
                ["CLS", lab.summary.cls === null ? dash : clsText(lab.summary.cls)],
                ["TBT", lab.summary.tbt === null ? dash : msText(lab.summary.tbt)],
              ]}
            />
          ) : (
            <Failed check="lab" outcome={lab} />
          )}
        </section>
      ) : null}
      {tls ? (
        <section aria-labelledby="run-tls" className="grid gap-4">
          <h3 id="run-tls" className="text-lg font-semibold">
            TLS certificate
          </h3>
          {tls.ok ? (
            <>
              <Numbers
                items={[
                  ["Days left", tls.summary.daysLeft === null ? dash : String(tls.summary.daysLeft)],
                  ["Verifies", tls.summary.verified ? "Yes" : "No"],
                ]}
              />
              {/* The whole check, as the audit page's TLS card shows it. */}
              <TlsResult result={tls.result as TlsCheckResult} />
            </>
          ) : (
            <Failed check="tls" outcome={tls} />
          )}
        </section>
      ) : null}
    </div>
  );
}
