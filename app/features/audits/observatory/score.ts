// The HTTP Observatory's scoring: every result's score modifier, the grade table and the
// extra-credit rule. Reproduced from MDN's "HTTP Observatory scoring methodology" and the reference
// implementation it documents (mdn/mdn-http-observatory: src/grader/charts.js SCORE_TABLE and
// GRADE_CHART, src/scanner/index.js for the extra-credit rule). When MDN changes a value, change it
// here, bump OBSERVATORY_ALGORITHM_VERSION and the tests that pin the totals.

import type { Grade, TestResult } from "../audit-types.ts";

/**
 * The reference's scoring algorithm version these modifiers reproduce, stored with every audit so
 * old scores stay explainable. Version 5 (v1.5.0 onwards) gives X-Frame-Options DENY/SAMEORIGIN the
 * same +5 as `frame-ancestors`; version 4 gave it 0. NOTE: not version 6, whose COOP/COEP tests were
 * unreleased when this was written.
 */
export const OBSERVATORY_ALGORITHM_VERSION = 5;

/** Score modifier of every result the reference can produce (name = the reference's result id). */
export const SCORE_MODIFIERS = {
  // Content Security Policy
  "csp-implemented-with-no-unsafe-default-src-none": 10,
  "csp-implemented-with-no-unsafe": 5,
  "csp-implemented-with-unsafe-inline-in-style-src-only": 0,
  "csp-implemented-with-insecure-scheme-in-passive-content-only": -10,
  "csp-implemented-with-unsafe-eval": -10,
  "csp-implemented-with-unsafe-inline": -20,
  "csp-implemented-with-insecure-scheme": -20,
  "csp-implemented-but-duplicate-directives": 0,
  "csp-header-invalid": -25,
  "csp-not-implemented": -25,
  "csp-not-implemented-but-reporting-enabled": -25,
  // Cookies
  "cookies-secure-with-httponly-sessions-and-samesite": 5,
  "cookies-secure-with-httponly-sessions": 0,
  "cookies-not-found": 0,
  "cookies-without-secure-flag-but-protected-by-hsts": -5,
  "cookies-session-without-secure-flag-but-protected-by-hsts": -10,
  "cookies-without-secure-flag": -20,
  "cookies-samesite-flag-invalid": -20,
  "cookies-anticsrf-without-samesite-flag": -20,
  "cookies-session-without-httponly-flag": -30,
  "cookies-session-without-secure-flag": -40,
  // Cross-origin resource sharing
  "cross-origin-resource-sharing-not-implemented": 0,
  "cross-origin-resource-sharing-implemented-with-public-access": 0,
  "cross-origin-resource-sharing-implemented-with-restricted-access": 0,
  "cross-origin-resource-sharing-implemented-with-universal-access": -50,
  // Redirection
  "redirection-all-redirects-preloaded": 0,
  "redirection-to-https": 0,
  "redirection-not-needed-no-http": 0,
  "redirection-off-host-from-http": -5,
  "redirection-not-to-https-on-initial-redirection": -10,
  "redirection-not-to-https": -20,
  "redirection-missing": -20,
  "redirection-invalid-cert": -20,
  // Referrer-Policy
  "referrer-policy-private": 5,
  "referrer-policy-not-implemented": 0,
  "referrer-policy-unsafe": -5,
  "referrer-policy-header-invalid": -5,
  // Strict-Transport-Security
  "hsts-preloaded": 5,
  "hsts-implemented-max-age-at-least-six-months": 0,
  "hsts-implemented-max-age-less-than-six-months": -10,
  "hsts-not-implemented": -20,
  "hsts-header-invalid": -20,
  "hsts-not-implemented-no-https": -20,
  "hsts-invalid-cert": -20,
  // Subresource Integrity
  "sri-implemented-and-all-scripts-loaded-securely": 5,
  "sri-implemented-and-external-scripts-loaded-securely": 5,
  "sri-not-implemented-response-not-html": 0,
  "sri-not-implemented-but-no-scripts-loaded": 0,
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin": 0,
  "sri-not-implemented-but-external-scripts-loaded-securely": -5,
  "sri-implemented-but-external-scripts-not-loaded-securely": -20,
  "sri-not-implemented-and-external-scripts-not-loaded-securely": -50,
  // X-Content-Type-Options
  "x-content-type-options-nosniff": 0,
  "x-content-type-options-not-implemented": -5,
  "x-content-type-options-header-invalid": -5,
  // X-Frame-Options
  "x-frame-options-implemented-via-csp": 5,
  "x-frame-options-sameorigin-or-deny": 5,
  "x-frame-options-allow-from-origin": 0,
  "x-frame-options-not-implemented": -20,
  "x-frame-options-header-invalid": -20,
  // Cross-Origin-Resource-Policy
  "corp-implemented-with-same-origin": 10,
  "corp-implemented-with-same-site": 10,
  "corp-implemented-with-cross-origin": 0,
  "corp-not-implemented": 0,
  "corp-header-invalid": -5,
} as const;

export type ObservatoryResult = keyof typeof SCORE_MODIFIERS;

/** Bonuses count only when the score from the penalties alone is already an A. */
export const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

/** Lowest score for each grade, best first (the reference's chart, steps of 5 collapsed). */
const GRADE_TABLE: readonly [number, Grade][] = [
  [100, "A+"],
  [90, "A"],
  [85, "A-"],
  [80, "B+"],
  [70, "B"],
  [65, "B-"],
  [60, "C+"],
  [50, "C"],
  [45, "C-"],
  [40, "D+"],
  [30, "D"],
  [25, "D-"],
];

export function gradeForScore(score: number): Grade {
  for (const [minimum, grade] of GRADE_TABLE) if (score >= minimum) return grade;
  return "F";
}

export type Score = { score: number; uncappedScore: number; grade: Grade };

/**
 * Baseline 100, penalties always, bonuses only if the penalties alone leave at least 90; never
 * below 0. `uncappedScore` is the Observatory's own figure (up to 135); `score` caps it at 100 for
 * SPEC section 3.
 */
export function scoreTests(tests: readonly Pick<TestResult, "scoreModifier">[]): Score {
  let withExtraCredit = 100;
  let penaltiesOnly = 100;
  for (const { scoreModifier } of tests) {
    withExtraCredit += scoreModifier;
    if (scoreModifier < 0) penaltiesOnly += scoreModifier;
  }
  const raw = penaltiesOnly >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withExtraCredit : penaltiesOnly;
  const uncappedScore = Math.max(raw, 0);
  return { score: Math.min(uncappedScore, 100), uncappedScore, grade: gradeForScore(uncappedScore) };
}
