import { describe, expect, it } from "vitest";
import { lintExposition } from "./prometheus-lint.ts";
import { findPromtool, promtoolCheckMetrics } from "./promtool.ts";

// The rules of `promtool check metrics`, held by our own linter (issue 22). Where promtool is
// present, the same fixtures go through it too, so the two cannot drift apart unnoticed.

const family = (name: string, type: string, sample = `${name} 1`, help = "Something.") =>
  `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${sample}\n`;

const BAD: [string, string, string][] = [
  [
    "a gauge named like a counter",
    family("nodejs_active_handles_total", "gauge"),
    `non-counter metrics should not have "_total" suffix`,
  ],
  [
    "a counter without _total",
    family("app_leads_stored", "counter"),
    `counter metrics should have "_total" suffix`,
  ],
  ["no HELP line", "# TYPE app_things gauge\napp_things 1\n", "no help text"],
  [
    "a unit that is not the base unit",
    family("app_request_milliseconds", "gauge"),
    `use base unit "seconds" instead of "milliseconds"`,
  ],
  [
    "an abbreviated unit",
    family("app_latency_ms", "gauge"),
    "metric names should not contain abbreviated units",
  ],
  [
    "camelCase",
    family("app_leadsStored", "gauge"),
    "metric names should be written in 'snake_case' not 'camelCase'",
  ],
  [
    "a camelCase label",
    family("app_things", "gauge", 'app_things{leadType="demo"} 1'),
    "label names should be written in 'snake_case' not 'camelCase'",
  ],
  ["a colon", family("app:things", "gauge"), "metric names should not contain ':'"],
  [
    "a gauge with _count",
    family("app_things_count", "gauge"),
    `non-histogram and non-summary metrics should not have "_count" suffix`,
  ],
  [
    "a gauge with le",
    family("app_things", "gauge", 'app_things{le="1"} 1'),
    `non-histogram metrics should not have "le" label`,
  ],
  [
    "the type in the name",
    family("app_things_gauge", "gauge"),
    "metric name should not include type 'gauge'",
  ],
];

describe("lintExposition", () => {
  it.each(BAD)("finds %s", (_what, text, problem) => {
    expect(lintExposition(text).map((found) => found.text)).toContain(problem);
  });

  it("goes further than promtool on one point: an untyped metric must not end in _total either", () => {
    expect(lintExposition("# HELP app_things_total Things.\napp_things_total 1\n")).toEqual([
      { metric: "app_things_total", text: `non-counter metrics should not have "_total" suffix` },
    ]);
  });

  it("accepts well-named families of every type, histograms' and summaries' series included", () => {
    const text = [
      family("app_leads_stored_total", "counter", 'app_leads_stored_total{type="demo"} 3'),
      family("app_heap_size_total_bytes", "gauge"),
      family("app_start_time_seconds", "gauge"),
      "# HELP app_request_duration_seconds Requests.\n# TYPE app_request_duration_seconds histogram",
      'app_request_duration_seconds_bucket{le="0.1",route="/"} 1',
      'app_request_duration_seconds_bucket{le="+Inf",route="/"} 2',
      'app_request_duration_seconds_sum{route="/"} 0.3',
      'app_request_duration_seconds_count{route="/"} 2',
      "# HELP app_lag_seconds Lag.\n# TYPE app_lag_seconds summary",
      'app_lag_seconds{quantile="0.99"} NaN',
      "app_lag_seconds_sum 0\napp_lag_seconds_count 0",
    ].join("\n");
    expect(lintExposition(text)).toEqual([]);
  });

  it("refuses what promtool cannot parse", () => {
    expect(() => lintExposition(family("app_things", "gauge", "app_things one"))).toThrow(/invalid value/);
    expect(() => lintExposition(family("app_things", "meter"))).toThrow(/unknown type/);
    expect(() => lintExposition(`${family("app_things", "gauge")}# TYPE app_things gauge\n`)).toThrow(
      /second TYPE/,
    );
    expect(() => lintExposition(family("app_things", "gauge", "app_things{a=1} 1"))).toThrow(
      /malformed labels/,
    );
  });

  const promtool = findPromtool();
  it.skipIf(!promtool)(
    "agrees with promtool on every fixture (skipped without promtool: scripts/install-promtool.sh)",
    () => {
      for (const [what, text, problem] of BAD) {
        const result = promtoolCheckMetrics(promtool as string, text);
        expect(result.status, what).not.toBe(0);
        expect(result.output, what).toContain(problem);
      }
    },
  );
});
