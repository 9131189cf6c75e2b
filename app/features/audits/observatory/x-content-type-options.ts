// X-Content-Type-Options test (reference: src/analyzer/tests/x-content-type-options.js).

import type { AuditIssue, ScanInput } from "../audit-types.ts";
import { CATEGORY, firstHeader, type ObservatoryContext, type TestOutcome, verdict } from "./context.ts";
import type { ObservatoryResult } from "./score.ts";

export function xContentTypeOptionsTest(_input: ScanInput, context: ObservatoryContext): TestOutcome {
  const header = firstHeader(context.response, "x-content-type-options");
  let result: ObservatoryResult;
  if (header === null) result = "x-content-type-options-not-implemented";
  else if (header.slice(0, 256).trim().toLowerCase() === "nosniff") result = "x-content-type-options-nosniff";
  else result = "x-content-type-options-header-invalid";

  const issues: AuditIssue[] = [];
  if (result !== "x-content-type-options-nosniff")
    issues.push({
      id: header === null ? "x-content-type-options-missing" : "x-content-type-options-invalid",
      title: header === null ? "No X-Content-Type-Options: nosniff" : "X-Content-Type-Options not recognised",
      severity: "medium",
      category: CATEGORY.headers,
      description: `${header === null ? "The header is missing" : `\`${header}\` is not a valid value`}, so browsers may guess ("sniff") content types and run an uploaded text or image file as script or HTML.`,
      remediation: "Send `X-Content-Type-Options: nosniff` on every response, with a correct Content-Type.",
    });
  const descriptions: Record<string, string> = {
    "x-content-type-options-nosniff": "X-Content-Type-Options set to nosniff.",
    "x-content-type-options-not-implemented": "X-Content-Type-Options not implemented.",
    "x-content-type-options-header-invalid": "X-Content-Type-Options cannot be recognised.",
  };
  return {
    test: verdict(
      "x-content-type-options",
      result,
      result === "x-content-type-options-nosniff",
      descriptions[result] ?? result,
    ),
    issues,
  };
}
