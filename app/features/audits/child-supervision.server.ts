import type { ChildProcess } from "node:child_process";

// What the audits' child processes (the security audit's, the lab check's) share: a time budget
// with a kill when it runs out, and the end of stderr, enough to tell a heap exhaustion from
// another crash.

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
