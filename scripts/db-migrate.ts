// `npm run db:migrate`: applies pending migrations to the database DATABASE_URL names (the server
// also does this at start-up; this is for deploy pipelines that migrate before starting instances).
import { existsSync } from "node:fs";
import { openDatabase } from "../app/db/database.server.ts";
import { migrateToLatest } from "../app/db/migrate.server.ts";
import { parseEnv } from "../app/env.server.ts";

if (existsSync(".env")) process.loadEnvFile(".env");

try {
  const env = parseEnv();
  const database = openDatabase(env.DATABASE_URL, {
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
    poolSize: 1,
  });
  try {
    const applied = await migrateToLatest(database.db);
    console.log(
      applied.length > 0
        ? `${database.description}: applied ${applied.join(", ")}`
        : `${database.description}: already up to date`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
