import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./tests/support/longest-first-sequencer.ts";

/** Files at a time, both projects together (ADR 038); TEST_WORKERS overrides it for a measurement. */
const workers = Number(process.env.TEST_WORKERS) || 2;

// Two projects, one run: `unit` (beside the code, no server) and `e2e` (real Chromium against the
// production build served by server.ts). `npm test` runs both through scripts/run-tests.ts.
export default defineConfig({
  test: {
    // Both projects' files share one pool of two workers: longest first, whichever the project (ADR 038).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: [
            "app/**/*.test.{ts,tsx}",
            "composition/**/*.test.ts",
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "tests/support/**/*.test.ts",
          ],
          // Data tests open real databases (SQLite files and PostgreSQL schemas), each file its own:
          // two files at a time on a 2-core machine (Vitest's default there is one), since most of a
          // data test's time is spent waiting on PostgreSQL or a worker thread, not on this process.
          maxWorkers: workers,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/support/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file drives its own Chromium; two at a time suits a 2-core machine.
          maxWorkers: workers,
          // A page's answer can take seconds on a busy 2-core machine: a poll's default 1 s made
          // journeys flaky (a toast checked while the submission was still on its way).
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
