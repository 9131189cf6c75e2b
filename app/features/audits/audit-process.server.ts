import { type AuditJob, type AuditJobOutcome, runAuditJob } from "./audit-job.server.ts";
import type { HstsPreloadSnapshot } from "./observatory/hsts-preload.ts";

// Entry point of the child process that runs one security audit (forked by audit-child.server.ts,
// never imported by the app). The parent sends the job; the child asks once for the HSTS preload
// entries of the hosts it met, then sends the outcome and exits, so every byte the audit used is
// given back to the operating system with the process.

export type ParentMessage =
  | { type: "job"; job: AuditJob }
  | { type: "preload"; snapshot: HstsPreloadSnapshot | null };

export type ChildMessage =
  | { type: "preload-hosts"; hosts: string[] }
  | { type: "outcome"; outcome: AuditJobOutcome }
  | { type: "failed"; message: string };

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

function nextMessage<T extends ParentMessage["type"]>(type: T): Promise<Extract<ParentMessage, { type: T }>> {
  return new Promise((resolve) => {
    const listener = (message: ParentMessage) => {
      if (message.type !== type) return;
      process.off("message", listener);
      resolve(message as Extract<ParentMessage, { type: T }>);
    };
    process.on("message", listener);
  });
}

// The parent went away (crashed, killed): nobody wants the answer.
process.on("disconnect", () => process.exit(0));

const { job } = await nextMessage("job");
try {
  const outcome = await runAuditJob(job, async (hosts) => {
    const answer = nextMessage("preload");
    await send({ type: "preload-hosts", hosts });
    return (await answer).snapshot;
  });
  await send({ type: "outcome", outcome });
} catch (error) {
  await send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
process.exit(0);
