import { Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import type { AuditActionData } from "../audit-page.server.ts";
import { detailsHref } from "../audit-paths.ts";
import { TlsFormOutcome } from "../tls/tls-form-outcome.tsx";
import { auditSummaryText, loadTimeText } from "./audit-format.ts";
import { AUDIT_TEXT, urlRequiredText } from "./audit-texts.ts";

/** What a form post without JavaScript came to (the script shows the same as toasts). */
export function AuditFormOutcome({ outcome }: { outcome: AuditActionData }) {
  if (outcome.intent === "unknown") return <Banner tone="error">Unknown action.</Banner>;
  if (outcome.intent === "tls") return <TlsFormOutcome outcome={outcome} />;
  // The lab check card shows its own outcome, beside its form.
  if (outcome.intent === "lab") return null;
  if ("required" in outcome) {
    return (
      <Banner tone="error">
        <strong className="font-semibold">{AUDIT_TEXT.urlRequired}.</strong> {urlRequiredText(outcome.intent)}
      </Banner>
    );
  }
  if ("audit" in outcome) {
    const { audit } = outcome;
    return audit.ok ? (
      <Banner tone="success">
        <strong className="font-semibold">{AUDIT_TEXT.auditComplete}.</strong> {auditSummaryText(audit)}{" "}
        <Link to={detailsHref(audit)} className="font-semibold underline underline-offset-2">
          View its details
        </Link>
      </Banner>
    ) : (
      <Banner tone="error">
        <strong className="font-semibold">{AUDIT_TEXT.auditFailed}.</strong> {audit.message}
      </Banner>
    );
  }
  if ("refused" in outcome) {
    return (
      <Banner tone="error">
        <strong className="font-semibold">{AUDIT_TEXT.checkFailed}.</strong> {outcome.refused}
      </Banner>
    );
  }
  const { performance } = outcome;
  return performance.error ? (
    <Banner tone="error">
      <strong className="font-semibold">{AUDIT_TEXT.checkFailed}.</strong> {performance.error}
    </Banner>
  ) : (
    <Banner tone="success">
      <strong className="font-semibold">{AUDIT_TEXT.checkComplete}.</strong> {loadTimeText(performance)}
    </Banner>
  );
}
