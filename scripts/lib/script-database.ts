import { existsSync } from "node:fs";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import { parseEnv } from "../../app/env.server.ts";

/**
 * For the operator commands (db:migrate, admin:*, audit:update-hsts-preload): opens the database
 * DATABASE_URL names (a `.env` file is read as the server reads it), applies pending migrations,
 * runs `work` and always closes the database again. `applied` lists the migrations this run applied.
 */
export async function withScriptDatabase<T>(
  work: (database: AppDatabase, applied: string[]) => Promise<T>,
): Promise<T> {
  if (existsSync(".env")) process.loadEnvFile(".env");
  const env = parseEnv();
  const database = openDatabase(env.DATABASE_URL, { sqliteSynchronous: env.SQLITE_SYNCHRONOUS, poolSize: 1 });
  try {
    return await work(database, await migrateToLatest(database.db));
  } finally {
    await database.close();
  }
}
