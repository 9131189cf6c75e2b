// `npm run test:durations [-- --report FILE] [--write] [--table N]`: each test file's time in the last
// `npm test` run (Vitest's JSON report, .ci-artifacts/vitest-report.json), as the per-file table of
// docs/testing.md; `--write` also records them in tests/file-durations.json, which the suite's
// sequencer (tests/support/longest-first-sequencer.ts) reads on a fresh clone to start the longest
// files first (issue 33).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    report: { type: "string", default: join(root, ".ci-artifacts", "vitest-report.json") },
    write: { type: "boolean", default: false },
    table: { type: "string", default: "25" },
  },
});

// Paths relative to the checkout the report came from (its .ci-artifacts folder's parent).
const reportRoot = dirname(dirname(values.report));

type FileResult = { name: string; startTime?: number; endTime?: number; assertionResults?: unknown[] };
const report = JSON.parse(readFileSync(values.report, "utf8")) as {
  startTime?: number;
  testResults?: FileResult[];
};
const files = (report.testResults ?? [])
  .filter((file) => file.startTime !== undefined && file.endTime !== undefined)
  .map((file) => ({
    path: relative(reportRoot, file.name).split("\\").join("/"),
    seconds: ((file.endTime ?? 0) - (file.startTime ?? 0)) / 1000,
    tests: file.assertionResults?.length ?? 0,
    end: file.endTime ?? 0,
  }))
  .sort((a, b) => b.seconds - a.seconds);

const kind = (path: string) => (path.startsWith("tests/e2e/") ? "e2e" : "unit");
const sum = (list: typeof files) => list.reduce((total, file) => total + file.seconds, 0);
const e2e = files.filter((file) => kind(file.path) === "e2e");
const unit = files.filter((file) => kind(file.path) === "unit");
const lastEnd = Math.max(...files.map((file) => file.end));
const wall = report.startTime ? (lastEnd - report.startTime) / 1000 : Number.NaN;

console.log(
  `${files.length} files, ${files.reduce((n, file) => n + file.tests, 0)} tests; ` +
    `file-seconds: e2e ${sum(e2e).toFixed(0)} (${e2e.length} files), unit ${sum(unit).toFixed(0)} ` +
    `(${unit.length} files), from the first file's start to the last file's end ${wall.toFixed(0)} s`,
);
console.log("");
console.log("| File | Project | Tests | Seconds |");
console.log("| --- | --- | ---: | ---: |");
for (const file of files.slice(0, Number(values.table)))
  console.log(`| ${file.path} | ${kind(file.path)} | ${file.tests} | ${file.seconds.toFixed(1)} |`);
const rest = files.slice(Number(values.table));
if (rest.length > 0)
  console.log(
    `| ${rest.length} other files | | ${rest.reduce((n, f) => n + f.tests, 0)} | ${sum(rest).toFixed(1)} |`,
  );

if (values.write) {
  const recorded = Object.fromEntries(
    [...files]
      .sort((a, b) => a.path.localeCompare(b.path))
      .map((file) => [file.path, Math.round(file.seconds * 10) / 10]),
  );
  writeFileSync(join(root, "tests", "file-durations.json"), `${JSON.stringify(recorded, null, 2)}\n`);
  console.log(`\nWrote tests/file-durations.json (${files.length} files).`);
}
