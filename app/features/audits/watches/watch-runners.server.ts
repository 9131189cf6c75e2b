import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { metrics } from "#app/lib/metrics.server.ts";
import { AuditChildError, runAuditInChild } from "../audit-child.server.ts";
import { AuditBusyError, type AuditSlots } from "../audit-slots.server.ts";
import { hstsPreloadFor } from "../hsts-preload-list.server.ts";
import { failureText } from "../observatory/context.ts";
import { runPerformanceCheck } from "../performance-check.server.ts";
import type { CheckOutcome, Rating, WatchCheck } from "./watch-types.ts";

// Each kind of check a watch runs is a runner: the address in, a CheckOutcome out (the full result as
// the check's own page shows it, plus the few numbers trends and alerts read). The composition root
// registers the runners this server has; a watch offers exactly those. A runner never throws for the
// site's sake (a failure is a failed check, stored with the run); it throws AuditBusyError when the
// audits' slots are full, so the run is tried again shortly instead of recording a false failure.

export type CheckRunner<C extends WatchCheck = WatchCheck> = (url: string) => Promise<CheckOutcome<C>>;
export type CheckRunners = { [C in WatchCheck]?: CheckRunner<C> };

export type RunnerOptions = { slots: AuditSlots; allowPrivate: boolean };

/** Errors other than "busy" become a failed check; the log keeps the cause of an unexpected one. */
async function guarded<C extends WatchCheck>(
  check: C,
  url: string,
  work: () => Promise<CheckOutcome<C>>,
): Promise<CheckOutcome<C>> {
  // The same histogram as staff's own audits: a watch's runs are audits too.
  const timer = metrics.auditDuration.startTimer({ kind: check });
  try {
    const outcome = await work();
    timer({ outcome: outcome.ok ? "measured" : "failed" });
    return outcome;
  } catch (error) {
    timer({ outcome: error instanceof AuditBusyError ? "busy" : "failed" });
    if (error instanceof AuditBusyError) throw error;
    if (error instanceof AuditChildError) return { ok: false, error: error.message };
    console.error(`Watch ${check} check of ${new URL(url).host} failed: ${(error as Error).message}`);
    return { ok: false, error: `The ${check} check failed unexpectedly.` };
  }
}

/** The security audit, in its child process (as POST /api/admin/security-audit runs it). */
export function securityRunner(
  db: Kysely<Database>,
  { slots, allowPrivate }: RunnerOptions,
): CheckRunner<"security"> {
  return (url) =>
    guarded("security", url, async () => {
      const outcome = await slots.run(() =>
        runAuditInChild({ url, allowPrivate }, (hosts) => hstsPreloadFor(db, hosts)),
      );
      if (outcome.kind === "result") {
        const { score, grade } = outcome.result;
        return { ok: true, result: outcome.result, summary: { score, grade } };
      }
      if (outcome.kind === "unreachable")
        return { ok: false, error: failureText(outcome.failure), unanswered: true, result: outcome.failure };
      return { ok: false, error: outcome.message, unanswered: true };
    });
}

/** The performance check (timings and sizes; it runs in this process, under the same slots). */
export function performanceRunner({ slots, allowPrivate }: RunnerOptions): CheckRunner<"performance"> {
  return (url) =>
    guarded("performance", url, async () => {
      const result = await slots.run(() => runPerformanceCheck(url, { allowPrivate }));
      // A failed fetch still answers (with error and details, shown as the performance card shows
      // them): the site gave no HTTP answer to measure.
      if (result.error)
        return {
          ok: false,
          error: `${result.error}: ${result.details ?? ""}`.trim(),
          unanswered: true,
          result,
        };
      return { ok: true, result, summary: { status: result.status, loadTime: result.loadTime } };
    });
}

// ---- Adapters for the lab and TLS checks (issue 25's other parts), written against their published
// interfaces; the composition root registers them once those modules exist.

type LabMetric = { value: number; rating: Rating };
/** features/audits/lab: runLabCheck(url, { device, allowPrivate }) → LabResult. */
export type LabCheckResult = {
  score: number;
  metrics: Partial<Record<"fcp" | "lcp" | "tbt" | "cls" | "speedIndex" | "ttfb", LabMetric>>;
  error?: string;
};
export type RunLabCheck = (
  url: string,
  options: { device: "mobile" | "desktop"; allowPrivate: boolean },
) => Promise<LabCheckResult>;

export function labRunner(
  runLabCheck: RunLabCheck,
  { slots, allowPrivate }: RunnerOptions,
): CheckRunner<"lab"> {
  return (url) =>
    guarded("lab", url, async () => {
      // Mobile, as PageSpeed Insights leads with.
      const result = await slots.run(() => runLabCheck(url, { device: "mobile", allowPrivate }));
      if (result.error) return { ok: false, error: result.error, result };
      const { lcp, cls, tbt } = result.metrics;
      return {
        ok: true,
        result,
        summary: {
          score: result.score,
          lcp: lcp?.value ?? null,
          cls: cls?.value ?? null,
          tbt: tbt?.value ?? null,
          ratings: { lcp: lcp?.rating, cls: cls?.rating, tbt: tbt?.rating },
        },
      };
    });
}

/** features/audits/tls: runTlsCheck(url, { allowPrivate }) → TlsCheckResult. */
export type TlsCheckResult = {
  certificate?: { daysLeft: number; chainVerified: boolean; matchesHost: boolean } | null;
  issues?: unknown[];
  error?: string;
};
export type RunTlsCheck = (url: string, options: { allowPrivate: boolean }) => Promise<TlsCheckResult>;

export function tlsRunner(
  runTlsCheck: RunTlsCheck,
  { slots, allowPrivate }: RunnerOptions,
): CheckRunner<"tls"> {
  return (url) =>
    guarded("tls", url, async () => {
      if (new URL(url).protocol !== "https:")
        return { ok: false, error: "The TLS check needs an https:// address." };
      const result = await slots.run(() => runTlsCheck(url, { allowPrivate }));
      const certificate = result.certificate;
      if (!certificate)
        return { ok: false, error: result.error ?? "The server showed no certificate.", result };
      return {
        ok: true,
        result,
        summary: {
          daysLeft: certificate.daysLeft,
          verified: certificate.chainVerified && certificate.matchesHost,
        },
      };
    });
}

/** The checks a registry offers, in the order the pages list them. */
export function availableChecks(runners: CheckRunners): WatchCheck[] {
  return (["security", "performance", "lab", "tls"] as const).filter((check) => runners[check] !== undefined);
}
