// `npm run db:backup -- <file>`: a consistent copy of the SQLite database DATABASE_URL names, taken
// while the server runs, checked (integrity, rows per table) before it is kept. For PostgreSQL,
// docs/operations.md gives the pg_dump recipe.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { sqlitePathOf } from "../app/db/database.server.ts";
import { BackupError, backupSqlite, describeInspection } from "./lib/sqlite-backup.ts";

const target = process.argv[2];
if (!target || target.startsWith("-")) {
  console.error("Usage: npm run db:backup -- <file>   (a new file; the database is DATABASE_URL's)");
  process.exit(2);
}
if (existsSync(".env")) process.loadEnvFile(".env");
const source = sqlitePathOf(process.env.DATABASE_URL);
if (source === null || source === ":memory:") {
  console.error(
    'DATABASE_URL is not a SQLite file. For PostgreSQL use pg_dump: see docs/operations.md, "Backups".',
  );
  process.exit(2);
}
try {
  const copy = await backupSqlite(resolve(source), resolve(target));
  console.log(`Backed up ${resolve(source)} in ${(copy.ms / 1000).toFixed(2)} s.`);
  console.log(describeInspection(resolve(target), copy));
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Backup failed: ${error.message}`);
  process.exitCode = 1;
}
