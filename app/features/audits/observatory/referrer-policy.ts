// Referrer-Policy test (reference: src/analyzer/tests/referrer-policy.js): the header and a
// <meta name="referrer"> are read together and the last recognised value wins, as in browsers.

import type { AuditIssue, ScanInput } from "../audit-types.ts";
import {
  CATEGORY,
  headerValues,
  type ObservatoryContext,
  quoted,
  type TestOutcome,
  verdict,
} from "./context.ts";
import type { ObservatoryResult } from "./score.ts";

const PRIVATE = new Set(["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"]);
const UNSAFE = new Set(["origin", "origin-when-cross-origin", "unsafe-url", "no-referrer-when-downgrade"]);

export function analyseReferrerPolicy(context: ObservatoryContext): {
  result: ObservatoryResult;
  value: string | null;
} {
  const values = [...headerValues(context.response, "referrer-policy")];
  if (context.isHtml && context.html?.metaReferrer != null) values.push(context.html.metaReferrer);
  if (values.length === 0) return { result: "referrer-policy-not-implemented", value: null };
  const value = values.join(", ");
  const policy = value
    .split(",")
    .map((token) => token.trim().toLowerCase())
    .filter((token) => PRIVATE.has(token) || UNSAFE.has(token))
    .at(-1);
  if (policy && PRIVATE.has(policy)) return { result: "referrer-policy-private", value };
  if (policy) return { result: "referrer-policy-unsafe", value };
  return { result: "referrer-policy-header-invalid", value };
}

const DESCRIPTIONS: Partial<Record<ObservatoryResult, string>> = {
  "referrer-policy-private":
    "Referrer-Policy set to no-referrer, same-origin, strict-origin or strict-origin-when-cross-origin.",
  "referrer-policy-not-implemented":
    "Referrer-Policy not implemented (browsers default to strict-origin-when-cross-origin).",
  "referrer-policy-unsafe":
    "Referrer-Policy set unsafely to origin, origin-when-cross-origin, unsafe-url or no-referrer-when-downgrade.",
  "referrer-policy-header-invalid": "Referrer-Policy cannot be recognised.",
};

const EXAMPLE = "Referrer-Policy: strict-origin-when-cross-origin";

export function referrerPolicyTest(_input: ScanInput, context: ObservatoryContext): TestOutcome {
  const { result, value } = analyseReferrerPolicy(context);
  const category = CATEGORY.referrer;
  const issues: AuditIssue[] = [];
  if (result === "referrer-policy-unsafe")
    issues.push({
      id: "referrer-policy-unsafe",
      title: "Referrer-Policy leaks full URLs",
      severity: "medium",
      category,
      description: `\`${quoted(value ?? "")}\` sends page addresses (paths and query strings, which may hold tokens or personal data) to other sites${value?.includes("unsafe-url") || value?.includes("downgrade") ? ", even over plain HTTP" : ""}.`,
      remediation: `Send \`${EXAMPLE}\` (or no-referrer / same-origin for stricter privacy).`,
    });
  else if (result === "referrer-policy-header-invalid")
    issues.push({
      id: "referrer-policy-invalid",
      title: "Referrer-Policy not recognised",
      severity: "low",
      category,
      description: `\`${value}\` contains no valid policy, so browsers fall back to their default.`,
      remediation: `Send a valid value such as \`${EXAMPLE}\`.`,
    });
  else if (result === "referrer-policy-not-implemented")
    issues.push({
      id: "referrer-policy-missing",
      title: "No Referrer-Policy",
      severity: "low",
      category,
      description:
        "Modern browsers default to strict-origin-when-cross-origin, but older ones send full URLs to other sites. Setting it earns the Observatory's +5.",
      remediation: `Send \`${EXAMPLE}\`.`,
    });
  const pass = result === "referrer-policy-private" || result === "referrer-policy-not-implemented";
  return { test: verdict("referrer-policy", result, pass, DESCRIPTIONS[result] ?? result), issues };
}
