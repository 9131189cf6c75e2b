import type { AuditIssue, PerformanceResult, Severity } from "../audit-types.ts";

// How the audit page shows scores, severities and measurements (SPEC section 9), on the server and
// in the browser alike. Every colour pairs dark text with a pale tint (AA contrast), and the number
// or word is always shown, so nothing rests on colour alone.

export type ScoreBand = "good" | "fair" | "poor";

/** SPEC section 9: 90 and above green, 70 to 89 yellow, below 70 red. */
export function scoreBand(score: number): ScoreBand {
  if (score >= 90) return "good";
  if (score >= 70) return "fair";
  return "poor";
}

export const SCORE_BAND_CLASS: Record<ScoreBand, string> = {
  good: "bg-green-100 text-green-900",
  fair: "bg-yellow-100 text-yellow-900",
  poor: "bg-red-100 text-red-900",
};

/** Most severe first. */
export const SEVERITIES: readonly Severity[] = ["critical", "high", "medium", "low", "info"];

/** SPEC section 9: critical and high are shown as destructive. */
export function isDestructive(severity: Severity): boolean {
  return severity === "critical" || severity === "high";
}

export const SEVERITY_CLASS: Record<Severity, string> = {
  critical: "bg-danger text-white",
  high: "bg-danger text-white",
  medium: "bg-yellow-100 text-yellow-900",
  low: "bg-blue-100 text-blue-900",
  info: "bg-slate-200 text-slate-900",
};

export function severityLabel(severity: string): string {
  return severity.charAt(0).toUpperCase() + severity.slice(1);
}

const severityRank = (severity: string) => {
  const rank = SEVERITIES.indexOf(severity as Severity);
  return rank === -1 ? SEVERITIES.length : rank;
};

/** The issues, most severe first (the stored order kept within a severity). */
export function sortIssues<T extends Pick<AuditIssue, "severity">>(issues: readonly T[]): T[] {
  return [...issues].sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
}

/** SPEC section 9: the recommendations are up to 3 critical or high issues, critical first. */
export const MAX_RECOMMENDATIONS = 3;

export function recommendations<T extends Pick<AuditIssue, "severity">>(issues: readonly T[]): T[] {
  return sortIssues(issues.filter((issue) => isDestructive(issue.severity))).slice(0, MAX_RECOMMENDATIONS);
}

const integer = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 1 });

/** "412 ms" (rounded to a whole millisecond). */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return `${integer.format(Math.round(ms))} ms`;
}

/** "Load time: 412 ms": the description of the 'Performance Check Complete' toast. */
export function loadTimeText(result: Pick<PerformanceResult, "loadTime">): string {
  return `Load time: ${formatMs(result.loadTime)}`;
}

/** "12.3 KB (12,345 bytes)", "512 bytes". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  if (bytes < 1024) return `${integer.format(bytes)} bytes`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${oneDecimal.format(value)} ${units[unit]} (${integer.format(bytes)} bytes)`;
}

/** "HTTP/2", "HTTP/1.1". */
export function formatHttpVersion(version: string | undefined): string {
  if (!version) return "—";
  return version.toUpperCase().startsWith("HTTP") ? version : `HTTP/${version}`;
}

export const yesNo = (value: boolean | undefined | null): string =>
  value === undefined || value === null ? "—" : value ? "Yes" : "No";

/** The 'Security Audit Complete' description: "Score 85/100 (grade B+), 7 issues found." */
export function auditSummaryText(record: { score: number; grade: string; issues: readonly unknown[] }) {
  const count = record.issues.length;
  return `Score ${record.score}/100 (grade ${record.grade}), ${count} ${count === 1 ? "issue" : "issues"} found.`;
}

/** Which Observatory methodology graded an audit (its scores change between versions). */
export function scoringText(algorithmVersion: number): string {
  return `MDN HTTP Observatory algorithm ${algorithmVersion}`;
}
