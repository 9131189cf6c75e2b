// `npm test`: builds the production bundle, runs every Vitest project (unit and e2e in Chromium)
// and ends with the line CI reads: `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const reportDir = join(root, ".ci-artifacts");
const reportFile = join(reportDir, "vitest-report.json");
mkdirSync(reportDir, { recursive: true });

if (!process.argv.includes("--no-build")) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) {
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

const extra = process.argv.slice(2).filter((arg) => arg !== "--no-build");
const run = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`, ...extra],
  { cwd: root, stdio: "inherit" },
);

type Report = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTests: number;
};
let report: Report | undefined;
try {
  report = JSON.parse(readFileSync(reportFile, "utf8")) as Report;
} catch {
  report = undefined;
}
if (!report) {
  console.log("0 passed, 1 failed");
  process.exit(run.status || 1);
}
const failed = report.numFailedTests + (run.status !== 0 && report.numFailedTests === 0 ? 1 : 0);
const skipped = report.numPendingTests;
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(run.status ?? 1);
