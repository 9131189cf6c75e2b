// Cross-Origin-Resource-Policy test (reference: src/analyzer/tests/cross-origin-resource-policy.js).
// Every value but an unrecognised one passes; same-origin and same-site earn +10.

import type { AuditIssue, ScanInput } from "../audit-types.ts";
import {
  CATEGORY,
  firstHeader,
  type ObservatoryContext,
  quoted,
  type TestOutcome,
  verdict,
} from "./context.ts";
import type { ObservatoryResult } from "./score.ts";

const RESULTS: Record<string, ObservatoryResult> = {
  "same-origin": "corp-implemented-with-same-origin",
  "same-site": "corp-implemented-with-same-site",
  "cross-origin": "corp-implemented-with-cross-origin",
};

const DESCRIPTIONS: Partial<Record<ObservatoryResult, string>> = {
  "corp-implemented-with-same-origin":
    "Cross-Origin-Resource-Policy prevents leaks into cross-origin contexts.",
  "corp-implemented-with-same-site": "Cross-Origin-Resource-Policy prevents leaks into cross-site contexts.",
  "corp-implemented-with-cross-origin":
    "Cross-Origin-Resource-Policy implemented, but allows cross-origin embedding.",
  "corp-not-implemented": "Cross-Origin-Resource-Policy not implemented (defaults to cross-origin).",
  "corp-header-invalid": "Cross-Origin-Resource-Policy cannot be recognised.",
};

export function corpTest(_input: ScanInput, context: ObservatoryContext): TestOutcome {
  const header = firstHeader(context.response, "cross-origin-resource-policy");
  const value = header?.slice(0, 256).trim().toLowerCase() ?? null;
  const result: ObservatoryResult = value
    ? (RESULTS[value] ?? "corp-header-invalid")
    : "corp-not-implemented";
  const issues: AuditIssue[] = [];
  if (result === "corp-header-invalid")
    issues.push({
      id: "corp-invalid",
      title: "Cross-Origin-Resource-Policy not recognised",
      severity: "low",
      category: CATEGORY.isolation,
      description: `\`${quoted(header ?? "")}\` is not same-origin, same-site or cross-origin, so browsers ignore it.`,
      remediation:
        "Send `Cross-Origin-Resource-Policy: same-origin` (or same-site if sibling subdomains embed it).",
    });
  else if (result === "corp-not-implemented")
    issues.push({
      id: "corp-missing",
      title: "No Cross-Origin-Resource-Policy",
      severity: "low",
      category: CATEGORY.isolation,
      description:
        "Other sites may embed this response, which helps side-channel attacks such as Spectre read it. Setting it earns the Observatory's +10.",
      remediation:
        "Send `Cross-Origin-Resource-Policy: same-origin` (or same-site; cross-origin only for resources meant to be embedded elsewhere).",
    });
  return {
    test: verdict(
      "cross-origin-resource-policy",
      result,
      result !== "corp-header-invalid",
      DESCRIPTIONS[result] ?? result,
    ),
    issues,
  };
}
