import { fork } from "node:child_process";
import { join } from "node:path";
import type { AuditJob, AuditJobOutcome, PreloadLookup } from "./audit-job.server.ts";
import type { ChildMessage, ParentMessage } from "./audit-process.server.ts";
import { locateChildScript, secondsText, superviseChild } from "./child-supervision.server.ts";

// Runs one security audit in a child process of its own (issue 9 point 11). Measured with a 2 MB
// page of tiny tags: graded in the server's process it held the event loop for 0.3 s and kept
// ~290 MB of RSS for good; in a worker thread ten at once took the server to 3 GB and it still held
// 126 MB ten seconds later; in a child process the server's RSS does not move, and the child's
// memory goes back to the system when it exits. A V8 heap limit bounds each child, and a time-out
// kills one that runs too long.

const SCRIPT_NAME = "audit-process.server.ts";
const SCRIPT_FROM_ROOT = join("app", "features", "audits", SCRIPT_NAME);

export type ChildLimits = {
  /** Killed (SIGKILL) after this long: fetching takes at most ~20 s (two rounds of 10 s fetches). */
  timeoutMs: number;
  /** V8 old-space limit of the child; a 2 MB page of tiny tags needs ~200 MB. */
  heapMb: number;
};

export const DEFAULT_CHILD_LIMITS: ChildLimits = { timeoutMs: 45_000, heapMb: 256 };

export type ChildFailureKind = "timeout" | "memory" | "crash";

/** The child did not produce an outcome; `message` is fit to show staff. */
export class AuditChildError extends Error {
  readonly kind: ChildFailureKind;
  constructor(kind: ChildFailureKind, message: string) {
    super(message);
    this.name = "AuditChildError";
    this.kind = kind;
  }
}

/** The child's entry file, beside this module (source, tests) or under the project root (build). */
export function locateAuditProcessScript(
  // NOTE: a module runner (the Vite dev server) may not set import.meta.dirname; the project root is
  // then the working directory, as for the blog's content folder.
  from: string = import.meta.dirname ?? process.cwd(),
): string {
  return locateChildScript(from, SCRIPT_NAME, SCRIPT_FROM_ROOT, "The audit child process script");
}

/** Only what the child needs: never the database URL, secrets or admin password. */
function childEnvironment(): Record<string, string> {
  const kept: Record<string, string> = { NODE_ENV: process.env.NODE_ENV ?? "production" };
  for (const name of ["NODE_EXTRA_CA_CERTS", "TZ", "LANG", "PATH"]) {
    const value = process.env[name];
    if (value) kept[name] = value;
  }
  return kept;
}

export function runAuditInChild(
  job: AuditJob,
  lookupPreload: PreloadLookup,
  limits: ChildLimits = DEFAULT_CHILD_LIMITS,
): Promise<AuditJobOutcome> {
  return new Promise((resolve, reject) => {
    const child = fork(locateAuditProcessScript(), [], {
      execArgv: [`--max-old-space-size=${limits.heapMb}`, "--disable-warning=ExperimentalWarning"],
      env: childEnvironment(),
      // Structured clone: the preload snapshot's Map crosses as it is.
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let settled = false;
    let outcome: AuditJobOutcome | undefined;
    let failedMessage: string | undefined;
    const supervision = superviseChild(child, limits.timeoutMs, () => child.kill("SIGKILL"));
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      supervision.stop();
      action();
    };
    child.on("message", (message: ChildMessage) => {
      if (message.type === "outcome") outcome = message.outcome;
      else if (message.type === "failed") failedMessage = message.message;
      else if (message.type === "preload-hosts") {
        lookupPreload(message.hosts)
          .then((snapshot) => {
            if (child.connected) child.send({ type: "preload", snapshot } satisfies ParentMessage);
          })
          .catch((error: Error) => {
            child.kill("SIGKILL");
            finish(() => reject(error));
          });
      }
    });
    child.on("error", (error) => finish(() => reject(error)));
    child.on("exit", (code, signal) => {
      finish(() => {
        if (outcome) return resolve(outcome);
        if (supervision.timedOut)
          return reject(
            new AuditChildError(
              "timeout",
              `The audit did not finish within ${secondsText(limits.timeoutMs)}.`,
            ),
          );
        if (supervision.ranOutOfHeap() || signal === "SIGABRT")
          return reject(
            new AuditChildError(
              "memory",
              `The page is too large or complex to analyse: the audit ran out of its ${limits.heapMb} MB of memory.`,
            ),
          );
        reject(
          new AuditChildError(
            "crash",
            failedMessage
              ? `The audit failed: ${failedMessage}`
              : `The audit process ended unexpectedly (${signal ?? `exit code ${code}`}).`,
          ),
        );
      });
    });
    child.send({ type: "job", job } satisfies ParentMessage);
  });
}
