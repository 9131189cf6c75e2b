import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

// What the audits' child processes (the security audit's, the lab check's) share: where their entry
// file is, a time budget with a kill when it runs out, and the end of stderr, enough to tell a heap
// exhaustion from another crash.

const located = new Map<string, string>();

/**
 * A child's entry file. NOTE: the app runs from the Vite bundle (build/server/...), the child runs
 * from the source (Node strips the types), so look beside the calling module first (source, tests),
 * then for `fromRoot` in each parent folder (the bundle sits in build/server below the project root).
 * Found once per process: the requests after the first pay a map lookup, not file checks.
 */
export function locateChildScript(from: string, name: string, fromRoot: string, what: string): string {
  const key = `${from}\0${name}`;
  const known = located.get(key);
  if (known) return known;
  const found = findScript(from, name, fromRoot);
  if (!found) throw new Error(`${what} ${fromRoot} was not found above ${from}.`);
  located.set(key, found);
  return found;
}

function findScript(from: string, name: string, fromRoot: string): string | undefined {
  const beside = join(from, name);
  if (existsSync(beside)) return beside;
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, fromRoot);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

export type ChildSupervision = {
  readonly timedOut: boolean;
  /** The child (or V8 in it) said it ran out of heap. */
  ranOutOfHeap(): boolean;
  /** Clears the budget's timer once the child has ended. */
  stop(): void;
};

export function superviseChild(child: ChildProcess, timeoutMs: number, kill: () => void): ChildSupervision {
  let stderrTail = "";
  let timedOut = false;
  child.stderr?.on("data", (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-2048);
  });
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  return {
    get timedOut() {
      return timedOut;
    },
    ranOutOfHeap: () => /heap out of memory|Reached heap limit/i.test(stderrTail),
    stop: () => clearTimeout(timer),
  };
}

/** A budget as staff read it: "60 s". */
export const secondsText = (ms: number) => `${Math.round(ms / 1000)} s`;
