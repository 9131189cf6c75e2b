// Strict-Transport-Security test (reference: src/analyzer/tests/strict-transport-security.js).
// A host on Chromium's preload list gets "hsts-preloaded" (+5) whatever its header says, as in the
// reference: browsers use HTTPS for it before any response, so the header no longer decides.

import type { AuditIssue, ScanInput } from "../audit-types.ts";
import { CATEGORY, headerValues, type ObservatoryContext, type TestOutcome, verdict } from "./context.ts";
import { findHstsPreload, type HstsPreloadEntry } from "./hsts-preload.ts";
import type { ObservatoryResult } from "./score.ts";

// Six months is 15768000 s, but many sites send 15552000 (180 days); the reference accepts it.
export const SIX_MONTHS_SECONDS = 15_552_000;

export type HstsAnalysis = {
  result: ObservatoryResult;
  maxAge: number | null;
  includeSubDomains: boolean;
  preload: boolean;
  value: string | null;
  /** The preload list entry covering the site (its own or a parent's), when there is one. */
  preloaded: HstsPreloadEntry | null;
};

type HstsContext = Pick<ObservatoryContext, "httpsResponse" | "siteHostname" | "hstsPreload">;

export function analyseHsts(context: HstsContext): HstsAnalysis {
  const header = analyseHstsHeader(context);
  // Only with an HTTPS answer, as in the reference (a preloaded site that has no HTTPS is broken).
  const preloaded = context.httpsResponse ? findHstsPreload(context.hstsPreload, context.siteHostname) : null;
  return preloaded ? { ...header, result: "hsts-preloaded", preloaded } : { ...header, preloaded: null };
}

function analyseHstsHeader(context: HstsContext): Omit<HstsAnalysis, "preloaded"> {
  const response = context.httpsResponse;
  const base = { maxAge: null, includeSubDomains: false, preload: false, value: null };
  if (!response) return { ...base, result: "hsts-not-implemented-no-https" };
  // Browsers ignore HSTS from a connection whose certificate they did not trust.
  if (response.tls && !response.tls.authorized) return { ...base, result: "hsts-invalid-cert" };
  const value = headerValues(response, "strict-transport-security")[0];
  if (value === undefined) return { ...base, result: "hsts-not-implemented" };

  const header = value.slice(0, 1024);
  let maxAge: number | null = null;
  let includeSubDomains = false;
  let preload = false;
  for (const part of header.split(";").map((p) => p.trim().toLowerCase())) {
    if (part.startsWith("max-age=")) maxAge = Number.parseInt(part.slice(8, 128).replace(/^"|"$/g, ""), 10);
    else if (part === "includesubdomains") includeSubDomains = true;
    else if (part === "preload") preload = true;
  }
  // A comma means the header was sent twice and folded together; the reference rejects it.
  const valid = !header.includes(",") && maxAge !== null && Number.isFinite(maxAge);
  if (!valid || maxAge === null) return { ...base, value: header, result: "hsts-header-invalid" };
  return {
    result:
      maxAge < SIX_MONTHS_SECONDS
        ? "hsts-implemented-max-age-less-than-six-months"
        : "hsts-implemented-max-age-at-least-six-months",
    maxAge,
    includeSubDomains,
    preload,
    value: header,
  };
}

const PASSING: ReadonlySet<ObservatoryResult> = new Set([
  "hsts-implemented-max-age-at-least-six-months",
  "hsts-preloaded",
]);

export const hstsPasses = (analysis: HstsAnalysis) => PASSING.has(analysis.result);

const EXAMPLE = "Strict-Transport-Security: max-age=63072000; includeSubDomains";
const ONE_YEAR_SECONDS = 31_536_000;

/** Said once per audit by analyse.ts when no preload list is installed (non-scoring). */
export const PRELOAD_UNCHECKED_ISSUE: AuditIssue = {
  id: "hsts-preload-unchecked",
  title: "HSTS preload status not checked",
  severity: "info",
  category: CATEGORY.transport,
  description:
    "This installation has no copy of Chromium's HSTS preload list, so a preloaded site misses the 5 points the MDN HTTP Observatory gives for it.",
  remediation:
    "An administrator of this tool runs `npm run audit:update-hsts-preload` on the server (monthly keeps it current); the site itself needs no change.",
};

/** Non-scoring: the site asks to be preloaded, but the list does not have it yet. */
function notPreloadedIssues(context: HstsContext, analysis: HstsAnalysis): AuditIssue[] {
  if (!context.hstsPreload) return [];
  const asksForPreload =
    analysis.result === "hsts-implemented-max-age-at-least-six-months" &&
    analysis.preload &&
    analysis.includeSubDomains &&
    (analysis.maxAge ?? 0) >= ONE_YEAR_SECONDS;
  if (!asksForPreload) return [];
  const listDate = context.hstsPreload.retrievedAt.slice(0, 10);
  return [
    {
      id: "hsts-not-preloaded",
      title: "HSTS preload requested but not on the preload list",
      severity: "info",
      category: CATEGORY.transport,
      description: `The header carries \`preload\`, but ${context.siteHostname} is not on Chromium's HSTS preload list (as retrieved on ${listDate}), so a visitor's very first request can still go over plain HTTP.`,
      remediation:
        "Submit the registrable domain at https://hstspreload.org/ (it checks the requirements: HTTPS redirect, includeSubDomains, max-age of a year or more). Inclusion reaches browsers with their next releases.",
    },
  ];
}

export function hstsTest(_input: ScanInput, context: ObservatoryContext): TestOutcome {
  const analysis = analyseHsts(context);
  const category = CATEGORY.transport;
  const issues: AuditIssue[] = [];
  let description: string;
  switch (analysis.result) {
    case "hsts-preloaded":
      description = `Preloaded via the HSTS preloading process (${analysis.preloaded?.name} on Chromium's list, retrieved ${context.hstsPreload?.retrievedAt.slice(0, 10)}).`;
      break;
    case "hsts-not-implemented-no-https":
      description = "HSTS cannot be set: the site is not available over HTTPS.";
      issues.push({
        id: "hsts-no-https",
        title: "Site not available over HTTPS",
        severity: "critical",
        category,
        description:
          "The HTTPS fetch failed, so every visitor uses plain HTTP, readable and changeable by anyone on the network.",
        remediation: `Serve the site over HTTPS with a trusted certificate (Let's Encrypt is free), redirect HTTP to HTTPS and then send \`${EXAMPLE}\`.`,
      });
      break;
    case "hsts-invalid-cert":
      description = "HSTS cannot take effect: the certificate is not trusted.";
      issues.push({
        id: "hsts-invalid-cert",
        title: "HSTS ignored because of an untrusted certificate",
        severity: "high",
        category,
        description:
          "Browsers ignore Strict-Transport-Security received over a connection with certificate errors.",
        remediation: "Install a certificate that is trusted and matches the host name (full chain included).",
      });
      break;
    case "hsts-not-implemented":
      description = "Strict-Transport-Security header not implemented.";
      issues.push({
        id: "hsts-missing",
        title: "No Strict-Transport-Security header",
        severity: "high",
        category,
        description:
          "Without HSTS a visitor's first plain-HTTP request can be intercepted and downgraded (SSL stripping).",
        remediation: `Send \`${EXAMPLE}\` on HTTPS responses (start with a short max-age such as 86400 if unsure, then raise it).`,
      });
      break;
    case "hsts-header-invalid":
      description = "Strict-Transport-Security header cannot be recognised.";
      issues.push({
        id: "hsts-invalid",
        title: "Strict-Transport-Security header is invalid",
        severity: "high",
        category,
        description: `The header \`${analysis.value ?? ""}\` has no usable max-age or was sent more than once, so browsers may ignore it.`,
        remediation: `Send exactly one header, for example \`${EXAMPLE}\`.`,
      });
      break;
    case "hsts-implemented-max-age-less-than-six-months":
      description = "Strict-Transport-Security max-age is less than six months.";
      issues.push({
        id: "hsts-max-age-too-short",
        title: "HSTS max-age shorter than six months",
        severity: "medium",
        category,
        description: `max-age=${analysis.maxAge} seconds leaves returning visitors unprotected once it lapses between visits.`,
        remediation: `Raise max-age to at least 15552000 (180 days); two years is usual: \`${EXAMPLE}\`.`,
      });
      break;
    default:
      description = "Strict-Transport-Security set to at least six months.";
  }
  issues.push(...notPreloadedIssues(context, analysis));
  return {
    test: verdict("strict-transport-security", analysis.result, PASSING.has(analysis.result), description),
    issues,
  };
}
