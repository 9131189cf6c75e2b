import { describe, expect, it } from "vitest";
import { AuditBusyError, createAuditSlots } from "./audit-slots.server.ts";

/** A piece of work the test finishes when it wants. */
function held() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { work: () => done, finish };
}

describe("audit slots (issue 9 point 11)", () => {
  it("runs at most maxRunning at once, queues maxQueued, and refuses beyond as busy", async () => {
    const slots = createAuditSlots({ maxRunning: 2, maxQueued: 1, maxWaitMs: 60_000 });
    const jobs = [held(), held(), held()];
    const started: number[] = [];
    const runs = jobs.map((job, index) =>
      slots.run(async () => {
        started.push(index);
        await job.work();
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect({ running: slots.running, queued: slots.queued }).toEqual({ running: 2, queued: 1 });

    const refused = slots.run(async () => "never");
    await expect(refused).rejects.toBeInstanceOf(AuditBusyError);
    await expect(refused).rejects.toMatchObject({
      message:
        "The audit service is busy: other audits are running and waiting. Please try again in a minute.",
      retryAfterSeconds: 30,
    });

    jobs[0]?.finish();
    await expect(runs[0]).resolves.toBe(0);
    // The queued one took the freed slot.
    await expect.poll(() => started).toEqual([0, 1, 2]);
    jobs[1]?.finish();
    jobs[2]?.finish();
    await expect(Promise.all(runs)).resolves.toEqual([0, 1, 2]);
    expect({ running: slots.running, queued: slots.queued }).toEqual({ running: 0, queued: 0 });
  });

  it("gives a slot back when the work fails", async () => {
    const slots = createAuditSlots({ maxRunning: 1, maxQueued: 0, maxWaitMs: 60_000 });
    await expect(slots.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(slots.run(async () => "next")).resolves.toBe("next");
  });

  it("a queued audit gives up as busy after waiting maxWaitMs", async () => {
    const slots = createAuditSlots({ maxRunning: 1, maxQueued: 1, maxWaitMs: 50 });
    const job = held();
    const first = slots.run(job.work);
    await expect(slots.run(async () => "late")).rejects.toBeInstanceOf(AuditBusyError);
    expect(slots.queued).toBe(0);
    job.finish();
    await first;
  });
});
