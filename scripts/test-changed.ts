// `npm run test:changed`: the fast local loop of issue 33. Runs the tests related to the files
// changed since the branch left main (the merge base to the working tree: commits, staged,
// unstaged and untracked files), says which it chose and why, builds first only when an e2e file
// is chosen and the build is older than a changed source, and runs them through
// scripts/run-tests.ts (the same closing `N passed, N failed` line and leftover-process check).
// The choice itself is scripts/lib/changed-tests.ts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import {
  E2E_DIR,
  isBuildInput,
  type RouteNode,
  type SelectedTest,
  selectTests,
  staleBuild,
} from "./lib/changed-tests.ts";
import { formatLine } from "./lib/test-report.ts";

const USAGE = `Usage: npm run test:changed [-- [--base <ref>] [--project unit|e2e] [--list] [--build|--no-build] [vitest options]]

Runs the tests related to the files changed since the branch left main (\`git merge-base HEAD main\`
to the working tree, uncommitted and untracked files included), and ends as \`npm test\` does, with
\`N passed, N failed\` (\`0 passed, 0 failed\` when nothing is related).
  - unit and e2e files that changed, or import a changed file (Vitest's \`--changed\`);
  - e2e files that mention the URL path of a changed route module (app/routes.ts; a layout serves
    its children's paths, app/root.tsx every path), e.g. "/admin/webhooks";
  - every e2e file when tests/e2e/support/global-setup.ts changed.
When an e2e file is chosen it builds first if the build is missing or older than a changed source.

  --base <ref>          compare with another branch or commit than main
  --project unit|e2e    one project only
  --list                say what would run and why, run nothing
  --build / --no-build  always / never build first
  --help, -h            this text`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}

const root = join(import.meta.dirname, "..");

/** Stops without running anything: why, then the closing line as one failure. */
function fail(message: string): never {
  console.log(message);
  console.log(formatLine(0, 1));
  process.exit(1);
}

let base = "main";
let project: "unit" | "e2e" | undefined;
let listOnly = false;
let build: boolean | undefined;
const passThrough: string[] = [];
for (let index = 0; index < args.length; index++) {
  const arg = args[index] as string;
  const value = () => {
    const next = args[++index];
    if (next === undefined) fail(`${arg} needs a value (npm run test:changed -- --help)`);
    return next;
  };
  if (arg === "--base") base = value();
  else if (arg.startsWith("--base=")) base = arg.slice("--base=".length);
  else if (arg === "--project" || arg.startsWith("--project=")) {
    const name = arg === "--project" ? value() : arg.slice("--project=".length);
    if (name !== "unit" && name !== "e2e") fail(`--project is unit or e2e, not ${name}`);
    project = name;
  } else if (arg === "--list") listOnly = true;
  else if (arg === "--build") build = true;
  else if (arg === "--no-build") build = false;
  else if (arg.startsWith("-")) passThrough.push(arg);
  else
    fail(`${arg}: test:changed chooses the files itself (to run given files: npm test -- --no-build ${arg})`);
}

function git(gitArgs: string[]): string {
  const result = spawnSync("git", gitArgs, { cwd: root, encoding: "utf8" });
  if (result.status !== 0)
    fail(`git ${gitArgs.join(" ")} failed: ${(result.stderr || result.error?.message || "").trim()}`);
  return result.stdout;
}

const mergeBase = git(["merge-base", "HEAD", base]).trim();
const short = mergeBase.slice(0, 9);
const split = (output: string) => output.split("\0").filter((path) => path !== "");
// Working tree against the merge base (committed, staged and unstaged; deleted files too, and both
// sides of a rename), then the untracked files.
const changed = [
  ...new Set([
    ...split(git(["diff", "--name-only", "--no-renames", "-z", mergeBase])),
    ...split(git(["ls-files", "--others", "--exclude-standard", "-z"])),
  ]),
].sort();

const since = `since ${base} (${short})`;
if (changed.length === 0) {
  console.log(`test:changed: nothing changed ${since}: no test to run`);
  console.log(formatLine(0, 0));
  process.exit(0);
}
console.log(
  `test:changed: ${changed.length} ${changed.length === 1 ? "file" : "files"} changed ${since}: ${changed.slice(0, 6).join(", ")}${changed.length > 6 ? `, … (+${changed.length - 6})` : ""}`,
);

// Vitest's own choice: the test files that changed or import a changed file (its import graph).
function vitestRelated(): string[] {
  const dir = mkdtempSync(join(tmpdir(), "test-changed-"));
  const out = join(dir, "list.json");
  try {
    const listed = spawnSync(
      "npx",
      [
        "vitest",
        "list",
        `--changed=${mergeBase}`,
        "--filesOnly",
        `--json=${out}`,
        ...(project ? [`--project=${project}`] : []),
      ],
      { cwd: root, encoding: "utf8" },
    );
    if (!existsSync(out)) {
      // Nothing related ends the same way on some versions: no file, "No test files found".
      if (/No test files found/i.test(`${listed.stdout}${listed.stderr}`)) return [];
      fail(`vitest list --changed failed:\n${`${listed.stdout}${listed.stderr}`.trim()}`);
    }
    const entries = JSON.parse(readFileSync(out, "utf8")) as { file: string }[];
    return [...new Set(entries.map((entry) => relative(root, entry.file)))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function e2eSources(): Record<string, string> {
  if (project === "unit") return {};
  const sources: Record<string, string> = {};
  const dir = join(root, E2E_DIR);
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!/\.test\.ts$/.test(entry)) continue;
    sources[`${E2E_DIR}${entry}`] = readFileSync(join(dir, entry), "utf8");
  }
  return sources;
}

async function routeTable(): Promise<RouteNode[] | undefined> {
  if (project === "unit") return undefined;
  try {
    const module = (await import(pathToFileURL(join(root, "app", "routes.ts")).href)) as {
      default: RouteNode[];
    };
    return module.default;
  } catch (error) {
    console.log(
      `app/routes.ts could not be read (${(error as Error).message}): e2e files chosen by their imports only`,
    );
    return undefined;
  }
}

const selected: SelectedTest[] = selectTests({
  changed,
  routes: await routeTable(),
  e2eSources: e2eSources(),
  related: vitestRelated(),
}).filter((test) => project === undefined || test.project === project);

if (selected.length === 0) {
  console.log(
    `test:changed: no test is related to these changes${project ? ` in the ${project} project` : ""}: nothing to run`,
  );
  console.log(formatLine(0, 0));
  process.exit(0);
}
const count = (name: "unit" | "e2e") => selected.filter((test) => test.project === name).length;
console.log(
  `test:changed: ${selected.length} test ${selected.length === 1 ? "file" : "files"} (${count("unit")} unit, ${count("e2e")} e2e):`,
);
// One line a file; a reason shared by many files (Vitest running everything) once, with a few of
// them (every file with --list).
const byReason = new Map<string, SelectedTest[]>();
for (const test of selected) {
  const reason = test.reasons.join("; ");
  byReason.set(reason, [...(byReason.get(reason) ?? []), test]);
}
const shown = new Set<string>();
for (const test of selected) {
  const reason = test.reasons.join("; ");
  const group = byReason.get(reason) ?? [];
  if (group.length <= 8 || listOnly) console.log(`  ${test.file}: ${reason}`);
  else if (!shown.has(reason)) {
    shown.add(reason);
    const some = group.slice(0, 3).map((entry) => entry.file);
    console.log(`  ${group.length} files (${some.join(", ")}, …): ${reason}`);
  }
}

// The e2e files run against build/: build first when it is missing or older than a changed source.
const e2eChosen = count("e2e") > 0;
let rebuild = false;
if (e2eChosen && build !== false) {
  if (build === true) rebuild = true;
  else {
    const marker = join(root, "build", "static-manifest.json");
    const buildMs = existsSync(marker) ? statSync(marker).mtimeMs : undefined;
    // A deleted file's time is its folder's (the nearest one still there).
    const modifiedMs = (path: string): number => {
      let at = join(root, path);
      while (!existsSync(at) && at !== root) at = dirname(at);
      return statSync(at).mtimeMs;
    };
    const why = staleBuild(
      buildMs,
      changed.filter(isBuildInput).map((path) => ({ path, modifiedMs: modifiedMs(path) })),
    );
    rebuild = why !== undefined;
    console.log(
      `test:changed: ${why ? `${listOnly ? "would build" : "building"} first: ${why}` : "the build is newer than every changed source: not rebuilding"}`,
    );
  }
}

if (listOnly) process.exit(0);

const onlyProject = project ?? (e2eChosen ? (count("unit") > 0 ? undefined : "e2e") : "unit");
const run = spawnSync(
  process.execPath,
  [
    join(root, "scripts", "run-tests.ts"),
    ...(rebuild ? [] : ["--no-build"]),
    ...(onlyProject ? ["--project", onlyProject] : []),
    ...passThrough,
    ...selected.map((test) => join(root, test.file)),
  ],
  { cwd: root, stdio: "inherit" },
);
process.exit(run.status ?? 1);
