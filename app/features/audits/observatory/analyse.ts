// Runs the ten HTTP Observatory tests on a fetched site, scores them with the published
// methodology and adds the extra (non-scoring) checks. Pure: everything comes from the ScanInput.

import type { AuditIssue, AuditResult, ScanInput, Severity } from "../audit-types.ts";
import {
  chainOf,
  failureText,
  HTML_TYPES,
  mediaType,
  type ObservatoryContext,
  type TestOutcome,
} from "./context.ts";
import { cookiesTest } from "./cookies.ts";
import { corpTest } from "./corp.ts";
import { corsTest } from "./cors.ts";
import { cspTest } from "./csp.ts";
import { extraIssues } from "./extras.ts";
import { hstsTest, PRELOAD_UNCHECKED_ISSUE } from "./hsts.ts";
import type { HstsPreloadSnapshot } from "./hsts-preload.ts";
import { readHtml } from "./html.ts";
import { redirectionTest } from "./redirection.ts";
import { referrerPolicyTest } from "./referrer-policy.ts";
import { OBSERVATORY_ALGORITHM_VERSION, scoreTests } from "./score.ts";
import { sriTest } from "./sri.ts";
import { xContentTypeOptionsTest } from "./x-content-type-options.ts";
import { xFrameOptionsTest } from "./x-frame-options.ts";

export type ObservatoryScanErrorCode = "unreachable" | "not-2xx";

/** The site cannot be graded; `message` is fit to show the user. */
export class ObservatoryScanError extends Error {
  readonly code: ObservatoryScanErrorCode;
  constructor(code: ObservatoryScanErrorCode, message: string) {
    super(message);
    this.name = "ObservatoryScanError";
    this.code = code;
  }
}

export type AnalyseOptions = {
  /** The Origin the CORS probes sent (otherwise any `*.example` origin counts as the probe's). */
  corsOrigin?: string;
  /** "Now" for expiry checks; tests pass a fixed date. */
  now?: Date;
  /**
   * Chromium's HSTS preload list, at least the entries for preloadHostsOf(input). Without it the
   * preload results (+5) cannot be given and an info issue says so.
   */
  hstsPreload?: HstsPreloadSnapshot | null;
};

// The reference's order, which is also the order the tests are shown in.
const TESTS = [
  cspTest,
  cookiesTest,
  corsTest,
  redirectionTest,
  referrerPolicyTest,
  hstsTest,
  sriTest,
  xContentTypeOptionsTest,
  xFrameOptionsTest,
  corpTest,
] as const;

const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

/** Works out the graded response: the HTTPS page when it could be fetched, else the HTTP one (as the reference does). */
export function buildContext(input: ScanInput, options: AnalyseOptions = {}): ObservatoryContext {
  const https = chainOf(input.https);
  const http = chainOf(input.http);
  const chain = https ?? http;
  if (!chain) {
    const reasons = [input.https, input.http]
      .map((failure) => ("error" in failure ? failureText(failure) : ""))
      .filter(Boolean);
    throw new ObservatoryScanError(
      "unreachable",
      `The site could not be fetched over HTTPS or HTTP (${reasons.join("; ")}).`,
    );
  }
  const response = chain.final;
  // NOTE: the reference refuses to grade a page that is not 2xx (an error page's headers say
  // little about the site's), and so do we.
  if (response.status < 200 || response.status >= 300)
    throw new ObservatoryScanError(
      "not-2xx",
      `${response.url} answered HTTP ${response.status}; the Observatory only grades pages that answer 2xx.`,
    );
  const mime = mediaType(response);
  const isHtml = HTML_TYPES.has(mime);
  return {
    response,
    hops: chain.hops,
    url: new URL(response.url),
    // NOTE: the HTTP address may redirect to an HTTPS page the separate HTTPS probe does not reach
    // (an explicit port, an apex without HTTPS redirecting to www): that page is HTTPS all the same,
    // and its HSTS header is what browsers read.
    httpsResponse: https?.final ?? (http?.final.url.startsWith("https:") ? http.final : null),
    isHtml,
    // Scanned when HTML or undeclared (the reference's SRI test parses both).
    html: isHtml || mime === "" ? readHtml(response.body) : null,
    corsOrigin: options.corsOrigin,
    siteHostname: new URL(input.url).hostname,
    hstsPreload: options.hstsPreload ?? null,
  };
}

/** Throws ObservatoryScanError when the site cannot be graded (unreachable, or not 2xx). */
export function analyse(input: ScanInput, options: AnalyseOptions = {}): AuditResult {
  const context = buildContext(input, options);
  const outcomes: TestOutcome[] = TESTS.map((test) => test(input, context));
  const tests = outcomes.map((outcome) => outcome.test);
  const issues: AuditIssue[] = [
    ...outcomes.flatMap((outcome) => outcome.issues),
    ...extraIssues(input, context, options.now ?? new Date()),
    ...(context.hstsPreload ? [] : [PRELOAD_UNCHECKED_ISSUE]),
  ];
  // Array.prototype.sort is stable, so test order is kept within a severity.
  issues.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return {
    url: input.url,
    ...scoreTests(tests),
    algorithmVersion: OBSERVATORY_ALGORITHM_VERSION,
    tests,
    issues,
  };
}
