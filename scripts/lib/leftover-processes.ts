// After a test run, no process of the suite may be left (issue 33): `npm test` gives Vitest an
// environment marker, CLAUSEBRIDGE_TEST_RUN=<this run's id>, which every process it starts inherits
// (its workers, the servers the tests start, Chromium, the scripts the tests spawn). Once Vitest has
// exited, any process of this user whose environment still carries the marker outlived its test:
// it is named, stopped (SIGTERM, then SIGKILL), and the run counts a failure.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export const RUN_MARKER = "CLAUSEBRIDGE_TEST_RUN";

/** A fresh id for one run: two runs at once (another worktree) never see each other's processes. */
export function newRunId(): string {
  return randomBytes(8).toString("hex");
}

export type MarkedProcess = { pid: number; command: string };

export type ScanOptions = {
  /** /proc by default (a test may point it elsewhere). */
  procDir?: string;
  /** Only this user's processes (the current one by default): others' environments are not ours to read. */
  uid?: number;
  /** Never report these (the scanning process itself by default). */
  exclude?: number[];
};

/** URL passwords and `password=…`-style values in a command line, replaced by `***`. */
export function redactCommand(command: string): string {
  return command
    .replace(/(\/\/[^/\s:@]*:)[^@\s]*@/g, "$1***@")
    .replace(/\b((?:[\w-]*(?:password|passwd|secret|token|key))(?:=|\s+))\S+/gi, "$1***");
}

function commandOf(procDir: string, pid: number): string {
  try {
    const argv = readFileSync(join(procDir, String(pid), "cmdline"), "utf8")
      .split("\0")
      .filter(Boolean);
    const command = redactCommand(argv.join(" "));
    if (command !== "") return command.length > 160 ? `${command.slice(0, 157)}...` : command;
  } catch {
    // gone, or not readable: fall back to its name
  }
  try {
    return `[${readFileSync(join(procDir, String(pid), "comm"), "utf8").trim()}]`;
  } catch {
    return "[exited]";
  }
}

/** The live processes of this user whose environment has `RUN_MARKER=runId` (zombies have none). */
export function findMarkedProcesses(runId: string, options: ScanOptions = {}): MarkedProcess[] {
  const procDir = options.procDir ?? "/proc";
  const uid = options.uid ?? process.getuid?.();
  const exclude = new Set(options.exclude ?? [process.pid]);
  const wanted = `${RUN_MARKER}=${runId}`;
  const found: MarkedProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync(procDir);
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (exclude.has(pid)) continue;
    try {
      if (uid !== undefined && statSync(join(procDir, entry)).uid !== uid) continue;
      const environ = readFileSync(join(procDir, entry, "environ"), "utf8");
      if (!environ.split("\0").includes(wanted)) continue;
    } catch {
      continue; // exited meanwhile, or not ours
    }
    found.push({ pid, command: commandOf(procDir, pid) });
  }
  return found.sort((a, b) => a.pid - b.pid);
}

/** Running (not exited, and not a zombie: an orphan's may never be reaped here). */
export function isRunning(pid: number, procDir = "/proc"): boolean {
  try {
    const stat = readFileSync(join(procDir, String(pid), "stat"), "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X" && state !== "";
  } catch {
    return false;
  }
}

/**
 * Stops these processes, by PID only: SIGTERM, then SIGKILL for any still there after `graceMs`.
 * A PID is signalled only while it still carries the run's marker (never a reused PID).
 */
export async function stopMarkedProcesses(
  runId: string,
  processes: MarkedProcess[],
  { graceMs = 3_000, ...scan }: ScanOptions & { graceMs?: number } = {},
): Promise<void> {
  const stillMarked = () => {
    const marked = new Set(findMarkedProcesses(runId, scan).map((entry) => entry.pid));
    return processes.filter((entry) => marked.has(entry.pid));
  };
  const signal = (list: MarkedProcess[], name: NodeJS.Signals) => {
    for (const { pid } of list) {
      try {
        process.kill(pid, name);
      } catch {
        // already gone
      }
    }
  };
  signal(stillMarked(), "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && processes.some((entry) => isRunning(entry.pid, scan.procDir)))
    await sleep(100);
  signal(stillMarked(), "SIGKILL");
  const killDeadline = Date.now() + 2_000;
  while (Date.now() < killDeadline && stillMarked().length > 0) await sleep(50);
}

export type LeftoverCheck = {
  leftovers: MarkedProcess[];
  /** Lines for before the last one (none when nothing was left). */
  notes: string[];
};

/**
 * After the run: the marked processes still there once `settleMs` has passed (a server stopped in
 * the last teardown may take a moment to exit), listed and stopped.
 */
export async function checkLeftovers(
  runId: string,
  { settleMs = 2_000, ...options }: ScanOptions & { settleMs?: number; graceMs?: number } = {},
): Promise<LeftoverCheck> {
  let leftovers = findMarkedProcesses(runId, options);
  const deadline = Date.now() + settleMs;
  while (leftovers.length > 0 && Date.now() < deadline) {
    await sleep(100);
    leftovers = findMarkedProcesses(runId, options);
  }
  if (leftovers.length === 0) return { leftovers, notes: [] };
  const notes = leftovers.map(
    (entry) => `left running after the tests: pid ${entry.pid}, ${entry.command} (stopped now)`,
  );
  await stopMarkedProcesses(runId, leftovers, options);
  const count = leftovers.length;
  notes.push(
    `${count} ${count === 1 ? "process" : "processes"} of the suite outlived the run (a test did not stop its server or browser): counted as 1 failed`,
  );
  return { leftovers, notes };
}
