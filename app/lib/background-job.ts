import { randomBytes } from "node:crypto";

// A job every instance runs now and then (the analytics rollup, the retention purge): at most one
// run at a time per process, a name of its own for the lease it takes, and a stop that lets the run
// in progress reach a safe point and waits for it. A run never throws: a failure is logged in one
// line (its first line, cut) and the next call tries again.

export type BackgroundJob = {
  /** Starts a run unless one is going on here; resolves when it is over. */
  run(): Promise<void>;
  /** Asks the run in progress to stop at its next safe point, and waits for it. */
  stop(): Promise<void>;
};

export function createBackgroundJob<Result>({
  work,
  onDone,
  onError,
}: {
  /** One run: `owner` names this instance on the lease; `stopping()` turns true once stop() is called. */
  work: (run: { owner: string; stopping: () => boolean }) => Promise<Result>;
  onDone?: (result: Result) => void;
  /** Told the first line of the error's message, at most 200 characters. */
  onError: (message: string) => void;
}): BackgroundJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const owner = randomBytes(8).toString("hex");
  return {
    run() {
      if (stopped) return Promise.resolve();
      running ??= work({ owner, stopping: () => stopped })
        .then((result) => onDone?.(result))
        .catch((error: Error) => onError(error.message.split("\n")[0]?.slice(0, 200) ?? ""))
        .finally(() => {
          running = undefined;
        });
      return running;
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** Lets waiting requests in between two units of a job's work. */
export const yieldToRequests = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
