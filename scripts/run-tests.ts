// `npm test`: builds the production bundle, runs every Vitest project (unit and e2e in Chromium)
// and ends with the line CI reads: `N passed, N failed` (`, N skipped` when any). A test file that
// could not run counts its tests as failed; the lines before the last say which and why
// (scripts/lib/test-report.ts). No process of the suite may outlive the run: Vitest gets an
// environment marker that everything it starts inherits, and a process still carrying it once
// Vitest has exited is named, stopped and counted as a failure (scripts/lib/leftover-processes.ts).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { checkLeftovers, newRunId, RUN_MARKER } from "./lib/leftover-processes.ts";
import { formatLine, summariseReport, type VitestReport } from "./lib/test-report.ts";

const USAGE = `Usage: npm test [-- [--no-build] [vitest options] [test files]]

Builds the production bundle, then runs every Vitest project (unit, and e2e in Chromium), and ends
with the line CI reads: \`N passed, N failed\` (\`, N skipped\` when any). A process the tests
started that is still running after them (a server, a browser) is named, stopped, and counts as
1 failed.

  --no-build            use the existing build (e2e needs one: \`npm run build\`)
  --project unit|e2e    one project only (as \`npm run test:unit\` / \`npm run test:e2e\`)
  <files or filters>    only the test files whose path contains them
  --help, -h            this text; Vitest's own options: \`npx vitest --help\`

PostgreSQL: TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); REQUIRE_POSTGRES=1
fails the run when it cannot be reached instead of skipping the PostgreSQL half of the data tests.`;

// `npm test -- --help` (issue 32): the usage, without building or running anything.
if (process.argv.includes("--help") || process.argv.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}

const root = join(import.meta.dirname, "..");
const reportDir = join(root, ".ci-artifacts");
const reportFile = join(reportDir, "vitest-report.json");
mkdirSync(reportDir, { recursive: true });
// A report left by an earlier run must not stand in for this one's.
rmSync(reportFile, { force: true });

if (!process.argv.includes("--no-build")) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) {
    console.log("the build failed: no test ran");
    console.log(formatLine(0, 1));
    process.exit(1);
  }
}

const extra = process.argv.slice(2).filter((arg) => arg !== "--no-build");
// Every process Vitest starts inherits this (not this script itself, which scans for it after).
const runId = newRunId();
const run = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`, ...extra],
  { cwd: root, stdio: "inherit", env: { ...process.env, [RUN_MARKER]: runId } },
);
// A server or browser still running now outlived its test: named, stopped, and one failure.
const leftover = await checkLeftovers(runId);

let report: VitestReport | undefined;
try {
  report = JSON.parse(readFileSync(reportFile, "utf8")) as VitestReport;
} catch {
  report = undefined;
}
if (!report) {
  console.log("no test report: vitest stopped before writing one (see above)");
  for (const note of leftover.notes) console.log(note);
  console.log(formatLine(0, 1));
  process.exit(run.status || 1);
}
// Files that could not run (Chromium did not start…) count their tests as failed, and the lines
// before the last say which and why; the last line is only `N passed, N failed[, N skipped]`.
const summary = summariseReport(report, {
  exitStatus: run.status,
  root,
  readSource: (path) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
  },
});
for (const note of summary.notes) console.log(note);
for (const note of leftover.notes) console.log(note);
const failed = summary.failed + (leftover.leftovers.length > 0 ? 1 : 0);
console.log(formatLine(summary.passed, failed, summary.skipped));
process.exit(leftover.leftovers.length > 0 ? 1 : (run.status ?? 1));
