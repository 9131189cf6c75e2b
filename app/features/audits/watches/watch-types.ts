// What a watch is and what its runs produce (issue 25, ADR 030). Shared by the server, the pages and
// the JSON API, so types and constants only.

/** Every kind of check a watch can run; which of them this server offers is the runner registry's say. */
export const WATCH_CHECKS = ["security", "performance", "lab", "tls"] as const;
export type WatchCheck = (typeof WATCH_CHECKS)[number];

export const WATCH_CHECK_LABELS: Record<WatchCheck, string> = {
  security: "Security audit",
  performance: "Performance check",
  lab: "Lab check",
  tls: "TLS certificate",
};

export const WATCH_EVERY = ["hourly", "daily", "weekly"] as const;
export type WatchEvery = (typeof WATCH_EVERY)[number];

export const WATCH_EVERY_LABELS: Record<WatchEvery, string> = {
  hourly: "Every hour",
  daily: "Every day",
  weekly: "Every week",
};

export type Rating = "good" | "needs-improvement" | "poor";

/** The numbers of one check that trends and alerts read; null where the check did not produce them. */
export type SecuritySummary = { score: number; grade: string };
/** `status` 0: no HTTP answer at all (refused, timed out). */
export type PerformanceSummary = { status: number; loadTime: number };
export type LabSummary = {
  score: number;
  lcp: number | null;
  cls: number | null;
  tbt: number | null;
  ratings: { lcp?: Rating; cls?: Rating; tbt?: Rating };
};
export type TlsSummary = { daysLeft: number | null; verified: boolean };

export type CheckSummaries = {
  security: SecuritySummary;
  performance: PerformanceSummary;
  lab: LabSummary;
  tls: TlsSummary;
};

/**
 * One check of one run. `result` is the check's full result as its own page shows it (JSON); a check
 * that could not run says why in `error` and has no summary.
 */
export type CheckOutcome<C extends WatchCheck = WatchCheck> =
  | { ok: true; result: unknown; summary: CheckSummaries[C] }
  /** `unanswered`: the site itself did not answer (as opposed to the check failing on our side). */
  | { ok: false; error: string; unanswered?: boolean; result?: unknown };

export type RunResults = { [C in WatchCheck]?: CheckOutcome<C> };

export type RunStatus = "ok" | "partial" | "failed";
