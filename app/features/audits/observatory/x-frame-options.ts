// X-Frame-Options test (reference: src/analyzer/tests/x-frame-options.js): a frame-ancestors
// directive replaces the header. Since algorithm version 5 both earn +5: the HTML standard no longer
// calls X-Frame-Options legacy, so neither is preferred and neither gets an issue.
// NOTE: the reference counts frame-ancestors from a <meta> policy too, but browsers ignore it
// there (CSP3: "not supported in the <meta> element"); only the header's directive counts here.

import type { AuditIssue, ScanInput } from "../audit-types.ts";
import {
  CATEGORY,
  firstHeader,
  type ObservatoryContext,
  quoted,
  type TestOutcome,
  verdict,
} from "./context.ts";
import { headerFrameAncestors } from "./csp.ts";
import type { ObservatoryResult } from "./score.ts";

const DESCRIPTIONS: Partial<Record<ObservatoryResult, string>> = {
  "x-frame-options-implemented-via-csp": "Framing controlled by the CSP frame-ancestors directive.",
  "x-frame-options-sameorigin-or-deny": "X-Frame-Options set to SAMEORIGIN or DENY.",
  "x-frame-options-allow-from-origin": "X-Frame-Options uses ALLOW-FROM, which current browsers ignore.",
  "x-frame-options-not-implemented": "X-Frame-Options not implemented.",
  "x-frame-options-header-invalid": "X-Frame-Options cannot be recognised.",
};

export function xFrameOptionsTest(_input: ScanInput, context: ObservatoryContext): TestOutcome {
  const header = firstHeader(context.response, "x-frame-options");
  const value = header?.slice(0, 1024).trim().toLowerCase() ?? null;
  let result: ObservatoryResult;
  if (value === null) result = "x-frame-options-not-implemented";
  else if (value === "deny" || value === "sameorigin") result = "x-frame-options-sameorigin-or-deny";
  else if (value.startsWith("allow-from")) result = "x-frame-options-allow-from-origin";
  else result = "x-frame-options-header-invalid";
  if (headerFrameAncestors(context)) result = "x-frame-options-implemented-via-csp";

  const issues: AuditIssue[] = [];
  const example =
    "Content-Security-Policy: frame-ancestors 'none'` (or 'self'), plus `X-Frame-Options: DENY` for old browsers";
  const metaOnly =
    context.isHtml && context.html?.metaCsp.some((policy) => /(^|;)\s*frame-ancestors\b/i.test(policy));
  if (result === "x-frame-options-not-implemented" || result === "x-frame-options-header-invalid")
    issues.push({
      id:
        result === "x-frame-options-not-implemented"
          ? "clickjacking-protection-missing"
          : "x-frame-options-invalid",
      title: "Page can be framed by any site (clickjacking)",
      severity: "medium",
      category: CATEGORY.framing,
      description: `${result === "x-frame-options-header-invalid" ? `X-Frame-Options \`${quoted(header ?? "")}\` is not recognised and ` : ""}no frame-ancestors directive is sent${metaOnly ? " (the one in the <meta> CSP is ignored by browsers)" : ""}, so another site can load this page in an invisible frame and trick visitors into clicking on it.`,
      remediation: `Send \`${example}.`,
    });
  else if (result === "x-frame-options-allow-from-origin")
    issues.push({
      id: "x-frame-options-allow-from",
      title: "X-Frame-Options ALLOW-FROM is ignored by browsers",
      severity: "medium",
      category: CATEGORY.framing,
      description: "Current browsers do not support ALLOW-FROM, so the page can be framed by anyone in them.",
      remediation:
        "Send `Content-Security-Policy: frame-ancestors 'self' https://partner.example.com` instead.",
    });
  return {
    test: verdict(
      "x-frame-options",
      result,
      result !== "x-frame-options-not-implemented" && result !== "x-frame-options-header-invalid",
      DESCRIPTIONS[result] ?? result,
    ),
    issues,
  };
}
