import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TestSpecification } from "vitest/node";
import { LongestFirstSequencer, recordedDurations } from "./longest-first-sequencer.ts";

const root = join(import.meta.dirname, "..", "..");
type Last = { failed: boolean; duration: number } | undefined;

function spec(path: string, project: "unit" | "e2e"): TestSpecification {
  return { moduleId: join(root, path), project: { name: project } } as unknown as TestSpecification;
}
function sequencer(last: Record<string, Last> = {}) {
  const ctx = {
    cache: { getTestSpecificationResult: (s: TestSpecification) => last[s.moduleId.slice(root.length + 1)] },
  };
  return new LongestFirstSequencer(ctx as never);
}
const order = (specs: TestSpecification[]) => specs.map((s) => s.moduleId.slice(root.length + 1));

describe("the suite's file order (issue 33)", () => {
  const dir = mkdtempSync(join(tmpdir(), "durations-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("starts the longest files first across both projects, by the committed durations on a fresh clone", async () => {
    const recorded = recordedDurations();
    // The committed table names real files, with the slow e2e files above the quick unit ones.
    expect(recorded["tests/e2e/import-load.test.ts"]).toBeGreaterThan(30);
    const files = [
      spec("app/db/prepared-statements.test.ts", "unit"),
      spec("tests/e2e/http.test.ts", "e2e"),
      spec("tests/e2e/import-load.test.ts", "e2e"),
      spec("app/features/leads/lead-admin.server.test.ts", "unit"),
    ];
    const sorted = order(await sequencer().sort(files));
    expect(sorted[0]).toBe("tests/e2e/import-load.test.ts");
    const seconds = sorted.map((path) => recorded[path] ?? 0);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  });

  it("prefers this machine's last run, runs failed files first, and guesses for files never timed", async () => {
    const files = [
      spec("tests/e2e/never-timed.test.ts", "e2e"),
      spec("app/never-timed.test.ts", "unit"),
      spec("tests/e2e/import-load.test.ts", "e2e"),
      spec("app/db/prepared-statements.test.ts", "unit"),
    ];
    const sorted = order(
      await sequencer({
        "tests/e2e/import-load.test.ts": { failed: false, duration: 1_000 },
        "app/db/prepared-statements.test.ts": { failed: true, duration: 10 },
      }).sort(files),
    );
    expect(sorted).toEqual([
      "app/db/prepared-statements.test.ts",
      "tests/e2e/never-timed.test.ts",
      "app/never-timed.test.ts",
      "tests/e2e/import-load.test.ts",
    ]);
  });

  it("reads a missing or broken durations file as no durations", () => {
    expect(recordedDurations(join(dir, "missing.json"))).toEqual({});
    writeFileSync(join(dir, "broken.json"), "{");
    expect(recordedDurations(join(dir, "broken.json"))).toEqual({});
  });
});
