import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { type RunningServer, startServer } from "../../../scripts/lib/server-process.ts";
import { createAccount } from "./accounts.ts";

// Several instances of server.ts on one PostgreSQL schema, set up as the runbook says: migrate once
// before any instance starts, create the admin, then start them all with the same environment.

const root = join(import.meta.dirname, "..", "..", "..");

/** `npm run db:migrate` on `databaseUrl`, then an admin account. */
export async function prepareSharedDatabase(
  databaseUrl: string,
  admin: { username: string; password: string },
): Promise<void> {
  await promisify(execFile)(process.execPath, ["scripts/db-migrate.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  await createAccount(databaseUrl, { ...admin, isAdmin: true });
}

/**
 * Starts `count` instances at once. Each one that started is pushed to `into` (so the caller's
 * afterAll stops it) even when another failed; then the first failure is thrown.
 */
export async function startInstances(
  env: Record<string, string>,
  count: number,
  into: RunningServer[],
): Promise<void> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(env)));
  for (const outcome of started) if (outcome.status === "fulfilled") into.push(outcome.value);
  const failed = started.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
}
