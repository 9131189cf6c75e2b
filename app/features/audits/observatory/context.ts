// What every Observatory test reads besides the ScanInput: the response being graded (the
// reference calls it "auto": the HTTPS page when HTTPS works, else the HTTP one), its URL, and
// the page's HTML facts, worked out once in analyse.ts.

import type { AuditIssue, FetchChain, FetchedResponse, FetchFailure, TestResult } from "../audit-types.ts";
import type { HstsPreloadSnapshot } from "./hsts-preload.ts";
import type { HtmlFacts } from "./html.ts";
import { type ObservatoryResult, SCORE_MODIFIERS } from "./score.ts";

export type ObservatoryContext = {
  /** The final response of the chain being graded. */
  response: FetchedResponse;
  /** Every hop of that chain (cookies are collected from all of them, as a browser's jar would). */
  hops: FetchedResponse[];
  url: URL;
  /** The final HTTPS response, or null when HTTPS could not be fetched. */
  httpsResponse: FetchedResponse | null;
  /** Whether the Content-Type is HTML (meta tags count only then, as in the reference). */
  isHtml: boolean;
  /** Scanned markup; null when the response declares a non-HTML type. */
  html: HtmlFacts | null;
  /** The Origin the CORS probes sent, when the caller knows it (see cors.ts for the fallback). */
  corsOrigin?: string;
  /** The audited host (the reference checks its preload status, not the final redirect target's). */
  siteHostname: string;
  /** Chromium's HSTS preload list (the audited hosts' part of it), or null when none is installed. */
  hstsPreload: HstsPreloadSnapshot | null;
};

/** A test's verdict plus the issues it implies. */
export type TestOutcome = { test: TestResult; issues: AuditIssue[] };

export function isFailure<T extends object>(value: T | FetchFailure | undefined): value is FetchFailure {
  return value !== undefined && "error" in value;
}

/**
 * A failure as one sentence: "Connection refused: example.com refused…". Details that already start
 * with the title ("Refused: file URLs are not audited…") are not prefixed a second time.
 */
export function failureText(failure: FetchFailure): string {
  return failure.details.startsWith(`${failure.error}:`)
    ? failure.details
    : `${failure.error}: ${failure.details}`;
}

export function chainOf(value: FetchChain | FetchFailure): FetchChain | null {
  return isFailure(value) ? null : value;
}

/** All values of a header, in order (names are lower-cased by the fetcher). */
export function headerValues(response: FetchedResponse, name: string): string[] {
  const wanted = name.toLowerCase();
  return response.headers.filter(([key]) => key.toLowerCase() === wanted).map(([, value]) => value);
}

export function firstHeader(response: FetchedResponse, name: string): string | null {
  return headerValues(response, name)[0] ?? null;
}

/**
 * A value from the audited site, fit to quote inside an issue's `code` span: at most 200 characters
 * (issues are stored), and no backticks, which would end the span early.
 */
export function quoted(value: string): string {
  const clean = value.replace(/`/g, "'").replace(/[\r\n]+/g, " ");
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

export const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/** The media type without parameters, lower-cased; "" when absent. */
export function mediaType(response: FetchedResponse): string {
  return (firstHeader(response, "content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Builds the TestResult with the published modifier for `result`. */
export function verdict(
  name: string,
  result: ObservatoryResult,
  pass: boolean,
  description: string,
): TestResult {
  return { name, result, scoreModifier: SCORE_MODIFIERS[result], pass, description };
}

export const CATEGORY = {
  csp: "Content Security Policy",
  cookies: "Cookies",
  cors: "Cross-origin resource sharing",
  transport: "Transport security",
  referrer: "Referrer policy",
  sri: "Subresource integrity",
  headers: "Security headers",
  framing: "Clickjacking",
  isolation: "Cross-origin isolation",
  disclosure: "Information disclosure",
  disclosurePolicy: "Vulnerability disclosure",
  mixedContent: "Mixed content",
} as const;
