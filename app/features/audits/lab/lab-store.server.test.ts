import { expect, it } from "vitest";
import { describeEachDatabase } from "../../../../tests/support/databases.ts";
import { emptyMetrics } from "./lab-result.server.ts";
import { latestLabCheck, listLabChecks, saveLabCheck } from "./lab-store.server.ts";
import type { LabResult } from "./lab-types.ts";

// Issue 25: every measured lab check is kept (migration 028): the history reads the columns, the
// card the newest whole result, images included.

function result(url: string, score: number, lcp: number, cls: number): LabResult {
  const metrics = emptyMetrics();
  metrics.lcp = { value: lcp, displayValue: `${lcp / 1000} s`, rating: "good" };
  metrics.cls = { value: cls, displayValue: String(cls), rating: "good" };
  return {
    url,
    finalUrl: url,
    device: "desktop",
    fetchedAt: "2026-11-27T16:00:00.000Z",
    lighthouseVersion: "13.5.0",
    score,
    metrics,
    lcpElement: { selector: "h1", snippet: "<h1>" },
    opportunities: [],
    diagnostics: [],
    resources: [{ type: "total", label: "Total", requests: 3, bytes: 1234 }],
    finalScreenshot: "data:image/jpeg;base64,/9j/4AAQ",
    filmstrip: [{ timingMs: 300, data: "data:image/jpeg;base64,/9j/4AAQ" }],
    blocked: [{ url: "http://169.254.169.254/", reason: "Refused: cloud metadata" }],
    blockedCount: 1,
    warnings: [],
  };
}

describeEachDatabase("lab check store", (use) => {
  it("keeps each check: the newest whole result for the card, the columns for the history", async () => {
    const { db } = use();
    const first = await saveLabCheck(db, result("https://a.example/", 91, 1234.6, 0.0126), "admin");
    const second = await saveLabCheck(db, result("https://b.example/", 47, 5100, 0.3), "marketing");
    expect(second.id).toBeGreaterThan(first.id);
    const latest = await latestLabCheck(db);
    expect(latest).toMatchObject({
      ...result("https://b.example/", 47, 5100, 0.3),
      id: second.id,
      createdBy: "marketing",
    });
    expect(await listLabChecks(db)).toEqual([
      {
        id: second.id,
        date: second.date,
        url: "https://b.example/",
        device: "desktop",
        score: 47,
        lcpMs: 5100,
        cls: 0.3,
        error: null,
      },
      {
        id: first.id,
        date: first.date,
        url: "https://a.example/",
        device: "desktop",
        score: 91,
        lcpMs: 1235,
        cls: 0.013,
        error: null,
      },
    ]);
    await db.deleteFrom("labChecks").execute();
    expect(await latestLabCheck(db)).toBeNull();
  });
});
