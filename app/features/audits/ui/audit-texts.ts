// The audit page's words that SPEC sections 5 and 8 fix, in one place for the page, its no-JavaScript
// fallback and the tests.

export const AUDIT_TEXT = {
  urlRequired: "URL Required",
  urlRequiredAudit: "Please enter a URL to audit.",
  urlRequiredCheck: "Please enter a URL to check.",
  auditComplete: "Security Audit Complete",
  auditFailed: "Security Audit Failed",
  checkComplete: "Performance Check Complete",
  checkFailed: "Performance Check Failed",
  runAudit: "Run Audit",
  running: "Running...",
  checkNow: "Check Now",
  checking: "Checking...",
  viewDetails: "View Details",
  backToDashboard: "Back to Dashboard",
  // SPEC section 8 prints this with an ellipsis; the sentence carries on from it.
  noAudits: "No security audits have been run yet. Run an audit above and its results will appear here.",
  noIssues: "No issues found. Great job!",
  noCriticalIssues: "No critical or high issues found. Great job!",
} as const;

export type AuditIntent = "audit" | "check";

export const urlRequiredText = (intent: AuditIntent) =>
  intent === "audit" ? AUDIT_TEXT.urlRequiredAudit : AUDIT_TEXT.urlRequiredCheck;
