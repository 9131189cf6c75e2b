import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

// A background job that one instance at a time runs (the daily purge): whoever holds the job's row
// in `job_leases` (migration 020) runs it, until `locked_until`. The same lease as the analytics
// rollup's (features/analytics/rollup.server.ts): a conditional UPDATE takes it, every unit of work
// renews it inside its own transaction (and on PostgreSQL locks the row until commit), so an
// instance that lost it (it stalled past the lease, another took over) finds out before writing.
// A lease held by an instance that died runs out by itself.

/** How long a claim keeps other instances off; renewed by every unit of work. */
export const JOB_LEASE_MS = 5 * 60_000;

export class JobLeaseLostError extends Error {
  constructor(name: string) {
    super(`the ${name} lease was taken over by another instance`);
  }
}

export type ClaimOptions = {
  name: string;
  owner: string;
  now: Date;
  /** Only when the job has not finished since this instant (a daily job: a day ago). */
  notFinishedSince?: Date;
  leaseMs?: number;
};

/** Takes the job's lease when it is free or has run out (and the job is due); true when held now. */
export async function claimJobLease(
  db: Kysely<Database>,
  { name, owner, now, notFinishedSince, leaseMs = JOB_LEASE_MS }: ClaimOptions,
): Promise<boolean> {
  await db
    .insertInto("jobLeases")
    .values({ name, lockedBy: null, lockedUntil: null, finishedAt: null, lastResult: null })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  let claim = db
    .updateTable("jobLeases")
    .set({ lockedBy: owner, lockedUntil: new Date(now.getTime() + leaseMs).toISOString() })
    .where("name", "=", name)
    .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<", now.toISOString())]));
  // Checked in the same statement as the claim: an instance that saw the job due a moment ago does
  // not run it again once another has finished it.
  if (notFinishedSince)
    claim = claim.where((eb) =>
      eb.or([eb("finishedAt", "is", null), eb("finishedAt", "<", notFinishedSince.toISOString())]),
    );
  const claimed = await claim.executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** Inside a unit of work's transaction: renews the lease, or throws JobLeaseLostError when not ours. */
export async function holdJobLease(
  trx: Transaction<Database>,
  { name, owner, now, leaseMs = JOB_LEASE_MS }: Omit<ClaimOptions, "notFinishedSince">,
): Promise<void> {
  const held = await trx
    .updateTable("jobLeases")
    .set({ lockedUntil: new Date(now.getTime() + leaseMs).toISOString() })
    .where("name", "=", name)
    .where("lockedBy", "=", owner)
    .executeTakeFirst();
  if (Number(held.numUpdatedRows) !== 1) throw new JobLeaseLostError(name);
}

/** Lets the lease go; with `finished`, records that the job ran to its end, and what it did. */
export async function releaseJobLease(
  db: Kysely<Database>,
  name: string,
  owner: string,
  finished?: { at: Date; result: unknown },
): Promise<void> {
  await db
    .updateTable("jobLeases")
    .set({
      lockedBy: null,
      lockedUntil: null,
      ...(finished
        ? { finishedAt: finished.at.toISOString(), lastResult: JSON.stringify(finished.result) }
        : {}),
    })
    .where("name", "=", name)
    .where("lockedBy", "=", owner)
    .execute();
}
