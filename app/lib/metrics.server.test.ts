import { describe, expect, it } from "vitest";
import { lintExposition } from "../../scripts/lib/prometheus-lint.ts";
import { findPromtool, promtoolCheckMetrics } from "../../scripts/lib/promtool.ts";
import { metrics, registry } from "./metrics.server.ts";

// What /metrics serves must pass `promtool check metrics` (issue 22): prom-client's default Node
// metrics included, whose nodejs_active_*_total gauges were named like counters.

async function exposition(): Promise<string> {
  metrics.leadsStored.inc({ type: "demo", via: "form" });
  metrics.requests.observe({ route: "/", method: "GET", status: "2xx" }, 0.01);
  return registry.metrics();
}

describe("the metrics registry", () => {
  it("follows promtool's naming rules (our linter)", async () => {
    expect(lintExposition(await exposition())).toEqual([]);
  });

  it("still reports the active handles, requests and resources, by type", async () => {
    const text = await exposition();
    expect(text).toContain("# TYPE nodejs_active_handles gauge");
    expect(text).toContain("# TYPE nodejs_active_resources gauge");
    expect(text).not.toMatch(/^nodejs_active_\w+_total/m);
  });

  const promtool = findPromtool();
  it.skipIf(!promtool)(
    "passes `promtool check metrics` (skipped without promtool: scripts/install-promtool.sh)",
    async () => {
      const result = promtoolCheckMetrics(promtool as string, await exposition());
      expect(result.output).toBe("");
      expect(result.status).toBe(0);
    },
  );
});
