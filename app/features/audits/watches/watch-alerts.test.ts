import { describe, expect, it } from "vitest";
import { evaluateAlerts } from "./watch-alerts.ts";
import type { RunResults } from "./watch-types.ts";

const security = (grade: string, score = 50): RunResults["security"] => ({
  ok: true,
  result: {},
  summary: { grade, score },
});
const lab = (
  score: number,
  ratings: { lcp?: "good" | "poor"; cls?: "good" | "poor"; tbt?: "good" | "poor" } = {},
) =>
  ({
    ok: true,
    result: {},
    summary: { score, lcp: 2000, cls: 0.05, tbt: 100, ratings },
  }) as RunResults["lab"];
const none = { grade: null, labScore: null };

describe("the alerts a run opens and resolves", () => {
  it("opens one alert when the grade drops below the previous run's, and resolves it once back", () => {
    expect(evaluateAlerts({ security: security("B") }, { grade: "A", labScore: null }, [])).toEqual([
      {
        kind: "open",
        condition: "security-grade-drop",
        message: "The security grade dropped from A to B.",
        detail: { baseline: "A", value: "B" },
      },
    ]);
    const open = [{ id: 3, condition: "security-grade-drop", detail: { baseline: "A", value: "B" } }];
    // Lower again, or the same: still the one alert.
    expect(evaluateAlerts({ security: security("C") }, { grade: "B", labScore: null }, open)).toEqual([]);
    expect(evaluateAlerts({ security: security("A-") }, { grade: "C", labScore: null }, open)).toEqual([]);
    expect(evaluateAlerts({ security: security("A+") }, { grade: "A-", labScore: null }, open)).toEqual([
      {
        kind: "resolve",
        alertId: 3,
        condition: "security-grade-drop",
        message: "The security grade is back to A+ (was A before the drop).",
      },
    ]);
    // A first run compares with nothing.
    expect(evaluateAlerts({ security: security("F") }, none, [])).toEqual([]);
  });

  it("watches the lab score's fall of 10 or more and Core Web Vitals turning poor", () => {
    const changes = evaluateAlerts(
      { lab: lab(80, { lcp: "poor", cls: "good", tbt: "poor" }) },
      { grade: null, labScore: 90 },
      [],
    );
    expect(changes.map((change) => change.condition)).toEqual(["lab-score-drop", "lcp-poor", "tbt-poor"]);
    expect(evaluateAlerts({ lab: lab(81) }, { grade: null, labScore: 90 }, [])).toEqual([]);
  });

  it("alerts on a certificate with 14 days or fewer, one that does not verify, and a site that does not answer 2xx", () => {
    const tls = (daysLeft: number, verified: boolean): RunResults["tls"] => ({
      ok: true,
      result: {},
      summary: { daysLeft, verified },
    });
    expect(evaluateAlerts({ tls: tls(14, true) }, none, []).map((change) => change.message)).toEqual([
      "The certificate expires in 14 days.",
    ]);
    expect(evaluateAlerts({ tls: tls(15, true) }, none, [])).toEqual([]);
    expect(evaluateAlerts({ tls: tls(-2, false) }, none, []).map((change) => change.message)).toEqual([
      "The certificate has expired.",
      "The certificate does not verify for this host.",
    ]);
    const performance = (status: number): RunResults["performance"] => ({
      ok: true,
      result: {},
      summary: { status, loadTime: 10 },
    });
    expect(
      evaluateAlerts({ performance: performance(503) }, none, []).map((change) => change.message),
    ).toEqual(["The site answered 503 instead of 2xx."]);
    expect(
      evaluateAlerts({ performance: performance(200) }, none, [
        { id: 9, condition: "site-down", detail: {} },
      ]),
    ).toMatchObject([{ kind: "resolve", alertId: 9 }]);
  });

  it("changes nothing about a condition whose check failed on our side", () => {
    const open = [{ id: 1, condition: "security-grade-drop", detail: { baseline: "A" } }];
    expect(
      evaluateAlerts({ security: { ok: false, error: "timed out" } }, { grade: "A", labScore: null }, open),
    ).toEqual([]);
  });
});
