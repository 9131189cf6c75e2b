import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CI_RESULT_LINE,
  countDeclaredTests,
  formatLine,
  summariseReport,
  type VitestReport,
} from "./test-report.ts";

// npm test's closing lines from Vitest's JSON report (issue 22): Chromium did not start for some
// files, and their tests, which never ran, must count as failed, with the reason said.

const report = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "vitest-report-chromium-down.json"), "utf8"),
) as VitestReport;

const FORMS_SOURCE = `
import { it, test } from "vitest";
// it("a commented-out test does not count", () => {});
describe("forms", () => {
  it("sends the demo form", async () => {});
  it.concurrent("sends it to PostgreSQL", async () => {});
  test.each([["a"], ["b"]])("validates %s", (value) => {});
});
`;
const readSource = (path: string) => (path.endsWith("/forms.test.ts") ? FORMS_SOURCE : undefined);

describe("summariseReport", () => {
  const summary = summariseReport(report, { exitStatus: 1, root: "/project", readSource });

  it("counts the tests of files that could not run as failed, not skipped (the report says 1 failed)", () => {
    expect(report.numFailedTests).toBe(1);
    // 1 test failed + 4 whose beforeAll could not start Chromium + 3 in a file Vitest saw none of
    // (counted in its source) + 1 for a file that failed on import and cannot be read + 2 under a
    // describe block whose beforeAll failed (the report keeps no message for those).
    expect(summary).toMatchObject({ passed: 5, failed: 11, skipped: 1 });
    expect(summary.line).toBe("5 passed, 11 failed, 1 skipped");
  });

  it("says which files could not run and why, on the lines before the last", () => {
    expect(summary.notes).toEqual([
      "could not run: tests/e2e/admin.test.ts, 4 tests counted as failed (Chromium did not start)",
      "could not run: tests/e2e/forms.test.ts, 3 tests counted as failed (Chromium did not start)",
      "could not run: tests/e2e/crash.test.ts, 1 test counted as failed (Error: Cannot find module './missing.ts')",
      "could not run: tests/e2e/metrics.test.ts, 2 tests counted as failed (a hook failed before its tests ran, its error is above)",
      "4 files could not run: Chromium did not start (2), Error: Cannot find module './missing.ts' (1), a hook failed before its tests ran, its error is above (1); their 10 tests count as failed",
    ]);
  });

  it("keeps the last line in the form CI reads, and no other line in it", () => {
    expect(summary.line).toMatch(CI_RESULT_LINE);
    for (const note of summary.notes) expect(note).not.toMatch(CI_RESULT_LINE);
  });

  it("with one reason, names it once", () => {
    const chromiumOnly = {
      ...report,
      testResults: report.testResults?.filter((file) => !/(crash|metrics)\.test\.ts$/.test(file.name)),
    };
    const { notes, line } = summariseReport(chromiumOnly, { exitStatus: 1, root: "/project", readSource });
    expect(notes.at(-1)).toBe("2 files could not run: Chromium did not start; their 7 tests count as failed");
    expect(line).toBe("4 passed, 8 failed, 1 skipped");
    // What the old closing line said of the same files: 1 failed (Vitest's count), the rest skipped.
    expect(report.numFailedTests).toBe(1);
  });

  it("counts a failure when Vitest failed without a failed test, and says so", () => {
    const passing: VitestReport = { testResults: [report.testResults?.[0] as never] };
    const failedRun = summariseReport(passing, { exitStatus: 1, root: "/project" });
    expect(failedRun.line).toBe("3 passed, 1 failed, 1 skipped");
    expect(failedRun.notes[0]).toContain("vitest exited with status 1 though no test failed");
    expect(summariseReport(passing, { exitStatus: 0, root: "/project" })).toMatchObject({
      line: "3 passed, 0 failed, 1 skipped",
      notes: [],
    });
  });
});

describe("countDeclaredTests", () => {
  it("counts it( and test( calls with their modifiers, not comments or other names", () => {
    expect(countDeclaredTests(FORMS_SOURCE)).toBe(3);
    expect(countDeclaredTests("split(x); submit(y); const it = 1; item(3);")).toBe(0);
  });
});

describe("formatLine", () => {
  it("leaves out skipped when there are none", () => {
    expect(formatLine(3, 0)).toBe("3 passed, 0 failed");
    expect(formatLine(3, 0, 2)).toBe("3 passed, 0 failed, 2 skipped");
  });
});
