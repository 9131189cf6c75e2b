import { describe, expect, it } from "vitest";
import {
  gradeForScore,
  MINIMUM_SCORE_FOR_EXTRA_CREDIT,
  OBSERVATORY_ALGORITHM_VERSION,
  SCORE_MODIFIERS,
  scoreTests,
} from "./score.ts";

const tests = (...modifiers: number[]) => modifiers.map((scoreModifier) => ({ scoreModifier }));

describe("gradeForScore", () => {
  it.each([
    [135, "A+"],
    [100, "A+"],
    [99, "A"],
    [90, "A"],
    [89, "A-"],
    [85, "A-"],
    [84, "B+"],
    [80, "B+"],
    [79, "B"],
    [70, "B"],
    [69, "B-"],
    [65, "B-"],
    [64, "C+"],
    [60, "C+"],
    [59, "C"],
    [50, "C"],
    [49, "C-"],
    [45, "C-"],
    [44, "D+"],
    [40, "D+"],
    [39, "D"],
    [30, "D"],
    [29, "D-"],
    [25, "D-"],
    [24, "F"],
    [0, "F"],
  ])("%i is %s", (score, grade) => {
    expect(gradeForScore(score)).toBe(grade);
  });
});

describe("scoreTests", () => {
  it("starts from 100", () => {
    expect(scoreTests(tests(0, 0))).toEqual({ score: 100, uncappedScore: 100, grade: "A+" });
  });

  it("adds extra credit when the penalties alone leave at least 90, and caps score at 100", () => {
    expect(MINIMUM_SCORE_FOR_EXTRA_CREDIT).toBe(90);
    expect(scoreTests(tests(-10, 10, 5, 5))).toEqual({ score: 100, uncappedScore: 110, grade: "A+" });
  });

  it("drops all extra credit when the penalties alone fall below 90", () => {
    expect(scoreTests(tests(-15, 10, 5, 5))).toEqual({ score: 85, uncappedScore: 85, grade: "A-" });
  });

  it("never goes below 0", () => {
    expect(scoreTests(tests(-50, -50, -40, -25, 10))).toEqual({ score: 0, uncappedScore: 0, grade: "F" });
  });

  it("adds every bonus when nothing is penalised (145 since CORP joined; 135 before)", () => {
    // CSP default-src 'none' +10, cookies +5, referrer +5, HSTS preloaded +5, SRI +5, XFO via CSP +5, CORP +10.
    const best = [
      SCORE_MODIFIERS["csp-implemented-with-no-unsafe-default-src-none"],
      SCORE_MODIFIERS["cookies-secure-with-httponly-sessions-and-samesite"],
      SCORE_MODIFIERS["referrer-policy-private"],
      SCORE_MODIFIERS["hsts-preloaded"],
      SCORE_MODIFIERS["sri-implemented-and-external-scripts-loaded-securely"],
      SCORE_MODIFIERS["x-frame-options-implemented-via-csp"],
      SCORE_MODIFIERS["corp-implemented-with-same-origin"],
    ];
    expect(scoreTests(tests(...best)).uncappedScore).toBe(145);
  });
});

describe("algorithm version", () => {
  // Issue 9 point 13: MDN's algorithm 5 (mdn-http-observatory v1.5.0+), not the unreleased 6.
  it("is 5: X-Frame-Options DENY/SAMEORIGIN earns the same +5 as frame-ancestors", () => {
    expect(OBSERVATORY_ALGORITHM_VERSION).toBe(5);
    expect(SCORE_MODIFIERS["x-frame-options-sameorigin-or-deny"]).toBe(5);
    expect(SCORE_MODIFIERS["x-frame-options-implemented-via-csp"]).toBe(5);
    // Algorithm 6's cross-origin isolation tests are not scored.
    expect(
      Object.keys(SCORE_MODIFIERS).some((result) =>
        /^(coop|coep|cross-origin-(opener|embedder))/.test(result),
      ),
    ).toBe(false);
  });
});
