import { type Kysely, sql } from "kysely";
import { withDeadline } from "../lib/with-deadline.ts";
import { migrations as allMigrations } from "./migrate.server.ts";

// What `GET /readyz` answers (issue 13): can this instance serve, i.e. does its database answer
// within a second and carry every migration this build knows? A load balancer takes an instance
// out of rotation on 503 and puts it back once it answers 200 again.

/** How long the database may take to answer before the instance counts as not ready. */
export const READINESS_TIMEOUT_MS = 1000;

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Runs a trivial query and compares the applied migrations with the build's, both within
 * `timeoutMs`. Never throws: a failure is the reason it gives (no connection strings, no data).
 */
export async function checkReadiness(
  // biome-ignore lint/suspicious/noExplicitAny: reads only Kysely's own bookkeeping table
  db: Kysely<any>,
  { timeoutMs = READINESS_TIMEOUT_MS, migrations = allMigrations } = {},
): Promise<Readiness> {
  const check = (async (): Promise<Readiness> => {
    try {
      await sql`select 1`.execute(db);
    } catch {
      return { ready: false, reason: "the database is unreachable" };
    }
    let applied: Set<string>;
    try {
      // Kysely's table, in the connection's own schema on PostgreSQL (migrate.server.ts).
      const rows = await db.selectFrom("kysely_migration").select("name").execute();
      applied = new Set(rows.map((row: { name: string }) => row.name));
    } catch {
      return { ready: false, reason: "the database has not been migrated" };
    }
    const missing = Object.keys(migrations).filter((name) => !applied.has(name));
    return missing.length === 0
      ? { ready: true }
      : { ready: false, reason: `migrations not applied: ${missing.join(", ")}` };
  })();
  // The check itself never rejects: only the deadline does, with the reason.
  return withDeadline(check, timeoutMs, `the database did not answer within ${timeoutMs} ms`).catch(
    (error: Error): Readiness => ({ ready: false, reason: error.message }),
  );
}
