import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Orders every test file of both projects (unit and e2e share one pool of workers) longest first, so
// the long files start early and the two workers finish together, instead of a long file starting
// last and one core idling to the end (issue 33, ADR 038). A file's length is its last run on this
// machine (Vitest's cache), else its time in tests/file-durations.json (committed, from a full run:
// `npm run test:durations`), else a guess by project. Failed files still run first, as by default.

const root = join(import.meta.dirname, "..", "..");
/** A file no run has timed yet: e2e files start a browser context or a server, unit files mostly not. */
const GUESS_SECONDS = { e2e: 20, unit: 2 } as const;

export function recordedDurations(file = join(root, "tests", "file-durations.json")): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = recordedDurations();
    const cache = this.ctx.cache;
    const seconds = (spec: TestSpecification): number => {
      const last = cache.getTestSpecificationResult(spec);
      if (last?.failed) return Number.POSITIVE_INFINITY;
      if (last?.duration) return last.duration / 1000;
      const path = relative(root, spec.moduleId).split("\\").join("/");
      return recorded[path] ?? (spec.project.name === "e2e" ? GUESS_SECONDS.e2e : GUESS_SECONDS.unit);
    };
    const known = new Map(files.map((spec) => [spec, seconds(spec)]));
    return [...files].sort((a, b) => (known.get(b) ?? 0) - (known.get(a) ?? 0));
  }
}
