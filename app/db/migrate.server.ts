import type { Kysely } from "kysely";
import { type Migration, type MigrationResultSet, Migrator } from "kysely/migration";
import * as leads001 from "./migrations/001-leads.ts";

// Migrations are imported, not read from a folder at run time, so the bundled server build carries
// them. Names sort in the order they apply; never rename or edit one that has shipped.
const migrations: Record<string, Migration> = {
  "001-leads": leads001,
};

export class MigrationError extends Error {}

/** Brings the schema up to date. Safe to run from several instances at once (Kysely takes a lock). */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new MigrationError(
      `Database migration ${failed ? `"${failed.migrationName}" ` : ""}failed: ${cause}. The schema was left as it was before that migration.`,
    );
  }
  return (results ?? [])
    .filter((result) => result.status === "Success")
    .map((result) => result.migrationName);
}
