// `npm run bench:compare -- <git-ref> [--rounds N (2)] [--duration S (10)] [--path /x …] [--no-build] [--keep]`
// Measures a git ref against this working tree in one window: the ref is checked out into a
// temporary worktree (`git worktree add`, its own `npm ci`, since its lockfile may differ, and
// `npm run build`), then bench:leads and bench:pages run for the ref and for this checkout
// alternately (the order flips every round), and the ratios this / ref are printed: server CPU per
// request (the machine's load barely moves it) and throughput, per database and per page path, with
// each side's CPU per request against nginx's in the same bench:pages run. The worktree is removed
// at the end, on error and on Ctrl-C (--keep leaves it, for a rerun with --checkout).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runMain, wasInterrupted } from "./lib/run-main.ts";

const root = join(import.meta.dirname, "..");

type LeadsReport = {
  results: {
    database: string;
    storedPerSecond: number;
    cpuMicrosecondsPerRequest: number;
    failures: number;
  }[];
};
type PagesReport = {
  results: { target: string; requestsPerSecond: number; serverCpuPercent: number }[];
};

const children = new Set<ChildProcess>();
const cleanups: (() => void)[] = [];

/** Stops a child and waits for it to exit (SIGKILL after 10 s): nothing may still write in the worktree. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

async function cleanup(): Promise<void> {
  await Promise.all([...children].map(stop));
  for (const task of cleanups.splice(0).reverse()) {
    try {
      task();
    } catch (error) {
      console.error(`bench:compare: cleanup: ${(error as Error).message}`);
    }
  }
}

/** npm's variables of this run (`npm run bench:compare`) must not leak into the other checkout's npm. */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith("npm_package_") && !key.startsWith("npm_lifecycle_") && key !== "INIT_CWD",
    ),
  );
}

/** Runs a command to its end, its output on stderr (stdout carries the comparison only). */
async function run(command: string, args: string[], cwd: string): Promise<void> {
  console.error(`\n$ (${cwd}) ${command} ${args.join(" ")}`);
  const child = spawn(command, args, { cwd, env: childEnv(), stdio: ["ignore", process.stderr, "inherit"] });
  children.add(child);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  children.delete(child);
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${cwd} (exit ${code})`);
}

function git(args: string[]): string {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/**
 * Removes the temporary worktree from the repository's list and from disk. `git worktree remove`
 * when it can; otherwise (it failed part-way, or the add never finished) the directory goes and
 * `git worktree prune` drops the entry whose directory is gone, so `git worktree list` shows
 * no stray `checkout`. Prune touches only entries whose directory no longer exists.
 */
function removeWorktree(temp: string, checkout: string): void {
  try {
    git(["worktree", "remove", "--force", checkout]);
  } catch (error) {
    console.error(`bench:compare: ${(error as Error).message}; deleting ${checkout} and pruning`);
  }
  rmSync(temp, { recursive: true, force: true });
  const listed = git(["worktree", "list", "--porcelain"])
    .split("\n")
    .some((line) => line === `worktree ${checkout}`);
  if (listed) git(["worktree", "prune"]);
}

const median = (values: number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const fixed = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString("en-GB", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : "–";
const cpuPerRequest = (r: { serverCpuPercent: number; requestsPerSecond: number }) =>
  (r.serverCpuPercent * 10_000) / r.requestsPerSecond;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      rounds: { type: "string", default: "2" },
      duration: { type: "string", default: "10" },
      path: { type: "string", multiple: true },
      "no-build": { type: "boolean" },
      keep: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const ref = positionals[0];
  if (values.help || !ref) {
    console.log(
      "Usage: npm run bench:compare -- <git-ref> [--rounds N (2)] [--duration S (10)] [--path /x (/; repeatable)] [--no-build] [--keep]",
    );
    return values.help ? 0 : 1;
  }
  const rounds = Number(values.rounds);
  const duration = Number(values.duration);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error("--rounds must be 1-20");
  if (!Number.isInteger(duration) || duration < 1 || duration > 300)
    throw new Error("--duration must be 1-300");
  const paths = values.path?.length ? values.path : ["/"];
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const short = commit.slice(0, 7);

  const temp = mkdtempSync(join(tmpdir(), "bench-compare-"));
  // mkdtemp makes it private: nginx's worker (another user) must read the ref's build/client.
  chmodSync(temp, 0o755);
  const checkout = join(temp, "checkout");
  // Registered before it is added, so an interruption during `git worktree add` still removes it.
  if (values.keep)
    console.error(`bench:compare: keeping ${checkout} (git worktree remove --force ${checkout})`);
  else cleanups.push(() => removeWorktree(temp, checkout));
  git(["worktree", "add", "--detach", checkout, commit]);
  // Its own dependencies (its lockfile may differ) and build.
  await run("npm", ["ci", "--no-audit", "--no-fund"], checkout);
  await run("npm", ["run", "build"], checkout);
  if (!values["no-build"]) await run("npm", ["run", "build"], root);

  const sides = [
    { name: `${ref} (${short})`, dir: checkout },
    { name: "this checkout", dir: root },
  ] as const;
  const leads = new Map<string, LeadsReport[]>(sides.map((side) => [side.dir, []]));
  const pages = new Map<string, PagesReport[]>(
    sides.flatMap((side) => paths.map((p) => [`${side.dir} ${p}`, []])),
  );
  const json = join(temp, "result.json");
  const node = process.execPath;
  for (let round = 1; round <= rounds && !wasInterrupted(); round++) {
    const order = round % 2 === 1 ? sides : [...sides].reverse();
    console.error(
      `\nbench:compare: round ${round} of ${rounds}: ${order.map((s) => s.name).join(", then ")}`,
    );
    for (const side of order) {
      await run(
        node,
        ["scripts/bench-leads.ts", "--duration", String(duration), "--checkout", side.dir, "--json", json],
        root,
      );
      leads.get(side.dir)?.push(JSON.parse(readFileSync(json, "utf8")) as LeadsReport);
    }
    for (const path of paths) {
      for (const side of order) {
        await run(
          node,
          [
            "scripts/bench.ts",
            "--path",
            path,
            "--duration",
            String(duration),
            "--checkout",
            side.dir,
            "--json",
            json,
          ],
          root,
        );
        pages.get(`${side.dir} ${path}`)?.push(JSON.parse(readFileSync(json, "utf8")) as PagesReport);
      }
    }
  }

  const [base, mine] = sides;
  console.log(
    `\nbench:compare: this checkout against ${base.name}, ${rounds} round(s) of ${duration} s, alternating; ` +
      "medians of the rounds; ratio = this / ref (CPU: lower is better; throughput: higher is better)\n",
  );
  console.log(
    "| Lead submissions | CPU µs/lead ref | CPU µs/lead this | CPU ratio | Stored/s ref | Stored/s this | Throughput ratio |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  const databases = [
    ...new Set([...leads.values()].flat().flatMap((report) => report.results.map((r) => r.database))),
  ];
  for (const database of databases) {
    const of = (dir: string, pick: (r: LeadsReport["results"][number]) => number) =>
      median(
        (leads.get(dir) ?? [])
          .map((report) => report.results.find((r) => r.database === database))
          .map((r) => (r ? pick(r) : Number.NaN)),
      );
    const cpu = [
      of(base.dir, (r) => r.cpuMicrosecondsPerRequest),
      of(mine.dir, (r) => r.cpuMicrosecondsPerRequest),
    ] as const;
    const stored = [of(base.dir, (r) => r.storedPerSecond), of(mine.dir, (r) => r.storedPerSecond)] as const;
    console.log(
      `| ${database} | ${fixed(cpu[0])} | ${fixed(cpu[1])} | ${fixed(cpu[1] / cpu[0], 2)} | ${fixed(stored[0])} | ` +
        `${fixed(stored[1])} | ${fixed(stored[1] / stored[0], 2)} |`,
    );
  }

  console.log(
    "\n| Page | server.ts | CPU µs/req ref | CPU µs/req this | CPU ratio | req/s ratio | ref / nginx CPU | this / nginx CPU |",
  );
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const path of paths) {
    for (const counting of ["off", "on"]) {
      const target = `server.ts, analytics ${counting}`;
      const stats = (dir: string) => {
        const reports = pages.get(`${dir} ${path}`) ?? [];
        const app = reports.map((report) => report.results.find((r) => r.target === target));
        const nginx = reports.map((report) => report.results.find((r) => r.target === "nginx"));
        return {
          cpu: median(app.map((r) => (r ? cpuPerRequest(r) : Number.NaN))),
          rps: median(app.map((r) => r?.requestsPerSecond ?? Number.NaN)),
          // Against nginx in the same bench:pages run, then the median of the runs.
          nginx: median(
            app.map((r, i) => (r && nginx[i] ? cpuPerRequest(r) / cpuPerRequest(nginx[i]) : Number.NaN)),
          ),
        };
      };
      const [a, b] = [stats(base.dir), stats(mine.dir)];
      console.log(
        `| ${path} | counting ${counting} | ${fixed(a.cpu, 1)} | ${fixed(b.cpu, 1)} | ${fixed(b.cpu / a.cpu, 2)} | ` +
          `${fixed(b.rps / a.rps, 2)} | ${fixed(a.nginx, 2)} | ${fixed(b.nginx, 2)} |`,
      );
    }
  }
  const failed = [...leads.values()].flat().some((report) => report.results.some((r) => r.failures > 0));
  if (failed)
    console.log("\nWarning: some lead submissions failed (see the bench:leads tables above, on stderr).");
  return 0;
}

await runMain("bench-compare", main, cleanup);
