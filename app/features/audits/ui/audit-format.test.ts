import { describe, expect, it } from "vitest";
import type { AuditIssue, Severity } from "../audit-types.ts";
import {
  auditSummaryText,
  formatBytes,
  formatHttpVersion,
  formatMs,
  isDestructive,
  loadTimeText,
  recommendations,
  scoreBand,
  sortIssues,
} from "./audit-format.ts";

const issue = (id: string, severity: Severity): AuditIssue => ({
  id,
  title: id,
  severity,
  category: "c",
  description: "d",
});

describe("scoreBand (SPEC section 9)", () => {
  it("is green from 90, yellow from 70 to 89, red below 70", () => {
    expect([100, 90, 89, 70, 69, 0].map(scoreBand)).toEqual(["good", "good", "fair", "fair", "poor", "poor"]);
  });
});

describe("severities", () => {
  it("shows critical and high as destructive", () => {
    expect((["critical", "high", "medium", "low", "info"] as const).map(isDestructive)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("sorts the most severe first and keeps the stored order within a level", () => {
    const sorted = sortIssues([
      issue("a", "low"),
      issue("b", "high"),
      issue("c", "critical"),
      issue("d", "high"),
    ]);
    expect(sorted.map((i) => i.id)).toEqual(["c", "b", "d", "a"]);
  });

  it("recommends up to 3 critical or high issues, critical first", () => {
    const issues = [
      issue("m", "medium"),
      issue("h1", "high"),
      issue("h2", "high"),
      issue("c1", "critical"),
      issue("c2", "critical"),
    ];
    expect(recommendations(issues).map((i) => i.id)).toEqual(["c1", "c2", "h1"]);
    expect(recommendations([issue("m", "medium"), issue("i", "info")])).toEqual([]);
  });
});

describe("formatting", () => {
  it("rounds milliseconds and writes the load-time toast", () => {
    expect(formatMs(411.6)).toBe("412 ms");
    expect(formatMs(1234.4)).toBe("1,234 ms");
    expect(formatMs(null)).toBe("—");
    expect(loadTimeText({ loadTime: 412 })).toBe("Load time: 412 ms");
  });

  it("writes sizes in bytes, KB and MB", () => {
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(12_345)).toBe("12.1 KB (12,345 bytes)");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3 MB (3,145,728 bytes)");
  });

  it("names the HTTP version", () => {
    expect(formatHttpVersion("2")).toBe("HTTP/2");
    expect(formatHttpVersion("1.1")).toBe("HTTP/1.1");
    expect(formatHttpVersion(undefined)).toBe("—");
  });

  it("summarises an audit for its toast", () => {
    expect(auditSummaryText({ score: 85, grade: "B+", issues: [1, 2] })).toBe(
      "Score 85/100 (grade B+), 2 issues found.",
    );
    expect(auditSummaryText({ score: 100, grade: "A+", issues: [1] })).toBe(
      "Score 100/100 (grade A+), 1 issue found.",
    );
  });
});
