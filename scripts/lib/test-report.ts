// What `npm test` (scripts/run-tests.ts) makes of Vitest's JSON report (issue 22): a file that could
// not run (Chromium did not start, an import threw, a beforeAll failed) counts its tests as failed,
// not as skipped or not at all, and the lines before the last say which files and why. The last line
// stays exactly what CI reads: `N passed, N failed` and, when any, `, N skipped`.

/** The parts of Vitest's JSON reporter output this reads (Jest-compatible names). */
export type VitestReport = {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: VitestFileResult[];
};

export type VitestFileResult = {
  /** The test file's absolute path. */
  name: string;
  status: string;
  /** The file's own error (an import that threw, a hook that failed), "" when none. */
  message?: string;
  /** Jest's name for the same. */
  failureMessage?: string;
  assertionResults?: { status: string; fullName?: string; title?: string }[];
};

export type FileNotRun = {
  /** Relative to the project. */
  file: string;
  /** Its tests that did not pass, now counted as failed. */
  tests: number;
  reason: string;
};

export type TestSummary = {
  passed: number;
  failed: number;
  skipped: number;
  notRun: FileNotRun[];
  /** Lines to print before the last one: the files that could not run and why. */
  notes: string[];
  /** The last line: `N passed, N failed[, N skipped]`. */
  line: string;
};

export type SummaryOptions = {
  /** Vitest's exit status: non-zero with no failed test still counts one failure. */
  exitStatus: number | null;
  /** The project folder, to show test files relative to it. */
  root: string;
  /** A file's source, to count the tests of one that failed before Vitest saw any (undefined: unreadable). */
  readSource?: (path: string) => string | undefined;
};

/** Reasons by what the error says; anything else is shown as its first line. */
const KNOWN_REASONS: [RegExp, string][] = [
  [/chromium|browserType\.launch|Failed to launch|playwright/i, "Chromium did not start"],
  [/server\.ts (did not start|exited early)/, "the server did not start"],
  [/ECONNREFUSED[^\n]*:5432|PostgreSQL/i, "PostgreSQL did not answer"],
];

/** When the report keeps no error: a describe block's beforeAll failed (Vitest printed it above). */
export const HOOK_FAILED = "a hook failed before its tests ran, its error is above";

export function reasonOf(message: string): string {
  for (const [pattern, reason] of KNOWN_REASONS) if (pattern.test(message)) return reason;
  const first = message.trim().split("\n")[0]?.trim() ?? "";
  return first === "" ? HOOK_FAILED : first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/**
 * The tests a source declares, by its `it(` and `test(` calls (a modified call, such as a skipped
 * or table-driven one, counts once): enough to say how many a file that never ran would have run.
 */
export function countDeclaredTests(source: string): number {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return withoutComments.match(/(?<![\w.$])(?:it|test)(?:\.\w+(?:\([^()]*\))?)*\s*\(/g)?.length ?? 0;
}

const relative = (root: string, file: string) =>
  file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;

export function summariseReport(report: VitestReport, options: SummaryOptions): TestSummary {
  const files = report.testResults ?? [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const notRun: FileNotRun[] = [];
  if (files.length === 0) {
    passed = report.numPassedTests ?? 0;
    failed = report.numFailedTests ?? 0;
    skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  for (const file of files) {
    const tests = file.assertionResults ?? [];
    const error = (file.message || file.failureMessage || "").trim();
    const filePassed = tests.filter((test) => test.status === "passed").length;
    const fileFailed = tests.filter((test) => test.status === "failed").length;
    const notRunHere = tests.length - filePassed - fileFailed;
    passed += filePassed;
    failed += fileFailed;
    // Failed with no failed test: its own error (an import, a top-level beforeAll, in `message`) or
    // a describe block's hook (the report keeps no message then) stopped it.
    if (file.status === "failed" && (error !== "" || fileFailed === 0)) {
      // What did not run counts as failed (a test it meant to skip too: the report cannot tell
      // those apart). No test reported: count the source's.
      let counted =
        tests.length === 0 ? countDeclaredTests(options.readSource?.(file.name) ?? "") : notRunHere;
      if (counted === 0 && fileFailed === 0) counted = 1;
      failed += counted;
      if (counted > 0)
        notRun.push({ file: relative(options.root, file.name), tests: counted, reason: reasonOf(error) });
    } else {
      skipped += notRunHere;
    }
  }
  const notes: string[] = [];
  for (const entry of notRun)
    notes.push(
      `could not run: ${entry.file}, ${entry.tests} ${entry.tests === 1 ? "test" : "tests"} counted as failed (${entry.reason})`,
    );
  if (notRun.length > 0) {
    const byReason = new Map<string, number>();
    for (const entry of notRun) byReason.set(entry.reason, (byReason.get(entry.reason) ?? 0) + 1);
    const reasons = [...byReason].map(([reason, count]) =>
      byReason.size > 1 ? `${reason} (${count})` : reason,
    );
    const tests = notRun.reduce((sum, entry) => sum + entry.tests, 0);
    notes.push(
      `${notRun.length} ${notRun.length === 1 ? "file" : "files"} could not run: ${reasons.join(", ")}; their ${tests} ${tests === 1 ? "test counts" : "tests count"} as failed`,
    );
  }
  if (options.exitStatus !== 0 && failed === 0) {
    failed = 1;
    notes.push(
      `vitest exited with status ${options.exitStatus} though no test failed (an error outside the tests, above): counted as 1 failed`,
    );
  }
  return { passed, failed, skipped, notRun, notes, line: formatLine(passed, failed, skipped) };
}

/** The line CI reads. */
export function formatLine(passed: number, failed: number, skipped = 0): string {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
}

/** What CI accepts as the closing line (one word and a colon may stand before it). */
export const CI_RESULT_LINE = /^(?:\w+: )?\d+ passed, \d+ failed(?:, \d+ skipped)?$/;
