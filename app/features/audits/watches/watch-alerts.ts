import { plural } from "#app/lib/plural.ts";
import type { RunResults } from "./watch-types.ts";

// When a watched site got worse (issue 25), as a pure function of the run, the previous values and
// the alerts already open: each condition is bad, fine, or unknown (its check did not run or
// failed). A bad condition with no open alert opens one; a fine one with an open alert resolves it;
// unknown changes nothing. One open alert per condition and watch (the database enforces it too).

export const ALERT_CONDITIONS = [
  "site-down",
  "security-grade-drop",
  "lab-score-drop",
  "lcp-poor",
  "cls-poor",
  "tbt-poor",
  "certificate-expiring",
  "certificate-unverified",
] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

export const ALERT_CONDITION_LABELS: Record<AlertCondition, string> = {
  "site-down": "Site does not answer 2xx",
  "security-grade-drop": "Security grade dropped",
  "lab-score-drop": "Lab score fell by 10 or more",
  "lcp-poor": "Largest Contentful Paint is poor",
  "cls-poor": "Cumulative Layout Shift is poor",
  "tbt-poor": "Total Blocking Time is poor",
  "certificate-expiring": "Certificate expires within 14 days",
  "certificate-unverified": "Certificate does not verify",
};

/** A certificate with this many days left or fewer raises an alert. */
export const CERTIFICATE_WARNING_DAYS = 14;
/** A lab score this many points below the previous run's raises an alert. */
export const LAB_SCORE_DROP = 10;

const GRADES = ["F", "D-", "D", "D+", "C-", "C", "C+", "B-", "B", "B+", "A-", "A", "A+"];
/** Higher is better; -1 for a grade this list does not know (never compared as a drop). */
export const gradeRank = (grade: string) => GRADES.indexOf(grade);

/** What the alert remembers of how things were, to know when they are back. */
export type AlertDetail = { baseline?: string | number; value?: string | number | null };

export type OpenAlertRow = { id: number; condition: string; detail: AlertDetail };
/** The latest earlier values the drops compare with (from the runs that measured them). */
export type PreviousValues = { grade: string | null; labScore: number | null };

export type AlertChange =
  | { kind: "open"; condition: AlertCondition; message: string; detail: AlertDetail }
  | { kind: "resolve"; alertId: number; condition: AlertCondition; message: string };

type Verdict =
  | { state: "bad"; message: string; detail: AlertDetail }
  | { state: "fine"; message: string }
  | null;

/** Whether the site answered 2xx: the performance check says so; else a security audit that could not reach it. */
function answered(results: RunResults): { ok: boolean; status: number } | null {
  const performance = results.performance;
  if (performance?.ok) {
    const { status } = performance.summary;
    return { ok: status >= 200 && status < 300, status };
  }
  if (performance && !performance.ok && performance.unanswered) return { ok: false, status: 0 };
  const security = results.security;
  if (security?.ok) return { ok: true, status: 200 };
  if (security && !security.ok && security.unanswered) return { ok: false, status: 0 };
  return null;
}

function verdicts(
  results: RunResults,
  previous: PreviousValues,
  open: Map<string, OpenAlertRow>,
): Record<AlertCondition, Verdict> {
  const site = answered(results);
  const security = results.security?.ok ? results.security.summary : null;
  const lab = results.lab?.ok ? results.lab.summary : null;
  const tls = results.tls?.ok ? results.tls.summary : null;

  const gradeDrop = (): Verdict => {
    if (!security) return null;
    const openAlert = open.get("security-grade-drop");
    const baseline = openAlert ? String(openAlert.detail.baseline ?? "") : previous.grade;
    if (baseline === null || gradeRank(baseline) < 0 || gradeRank(security.grade) < 0) return null;
    return gradeRank(security.grade) < gradeRank(baseline)
      ? {
          state: "bad",
          message: `The security grade dropped from ${baseline} to ${security.grade}.`,
          detail: { baseline, value: security.grade },
        }
      : {
          state: "fine",
          message: `The security grade is back to ${security.grade} (was ${baseline} before the drop).`,
        };
  };

  const labDrop = (): Verdict => {
    if (!lab) return null;
    const openAlert = open.get("lab-score-drop");
    const baseline = openAlert ? Number(openAlert.detail.baseline) : previous.labScore;
    if (baseline === null || !Number.isFinite(baseline)) return null;
    return lab.score <= baseline - LAB_SCORE_DROP
      ? {
          state: "bad",
          message: `The lab score fell from ${baseline} to ${lab.score}.`,
          detail: { baseline, value: lab.score },
        }
      : { state: "fine", message: `The lab score is ${lab.score} again (${baseline} before the fall).` };
  };

  const poor = (metric: "lcp" | "cls" | "tbt", name: string, format: (value: number) => string): Verdict => {
    const rating = lab?.ratings[metric];
    if (!lab || !rating) return null;
    const value = lab[metric];
    const shown = value === null ? "" : ` (${format(value)})`;
    return rating === "poor"
      ? { state: "bad", message: `${name} is poor${shown}.`, detail: { value } }
      : { state: "fine", message: `${name} is ${rating.replace("-", " ")} again${shown}.` };
  };

  return {
    "site-down": site
      ? site.ok
        ? { state: "fine", message: `The site answers ${site.status} again.` }
        : {
            state: "bad",
            message:
              site.status === 0
                ? "The site did not answer."
                : `The site answered ${site.status} instead of 2xx.`,
            detail: { value: site.status },
          }
      : null,
    "security-grade-drop": gradeDrop(),
    "lab-score-drop": labDrop(),
    "lcp-poor": poor("lcp", "Largest Contentful Paint", (ms) => `${(ms / 1000).toFixed(1)} s`),
    "cls-poor": poor("cls", "Cumulative Layout Shift", (value) => value.toFixed(2)),
    "tbt-poor": poor("tbt", "Total Blocking Time", (ms) => `${Math.round(ms)} ms`),
    "certificate-expiring":
      tls && tls.daysLeft !== null
        ? tls.daysLeft <= CERTIFICATE_WARNING_DAYS
          ? {
              state: "bad",
              message:
                tls.daysLeft < 0
                  ? "The certificate has expired."
                  : `The certificate expires in ${plural(tls.daysLeft, "day")}.`,
              detail: { value: tls.daysLeft },
            }
          : { state: "fine", message: `The certificate has ${tls.daysLeft} days left.` }
        : null,
    "certificate-unverified": tls
      ? tls.verified
        ? { state: "fine", message: "The certificate verifies again." }
        : { state: "bad", message: "The certificate does not verify for this host.", detail: {} }
      : null,
  };
}

/** The alerts this run opens and resolves. */
export function evaluateAlerts(
  results: RunResults,
  previous: PreviousValues,
  openAlerts: readonly OpenAlertRow[],
): AlertChange[] {
  const open = new Map(openAlerts.map((alert) => [alert.condition, alert]));
  const changes: AlertChange[] = [];
  for (const [condition, verdict] of Object.entries(verdicts(results, previous, open)) as [
    AlertCondition,
    Verdict,
  ][]) {
    if (!verdict) continue;
    const openAlert = open.get(condition);
    if (verdict.state === "bad" && !openAlert)
      changes.push({ kind: "open", condition, message: verdict.message, detail: verdict.detail });
    else if (verdict.state === "fine" && openAlert)
      changes.push({ kind: "resolve", alertId: openAlert.id, condition, message: verdict.message });
  }
  return changes;
}
