// `npm run db:restore -- <file> [--yes]`: replaces the SQLite database DATABASE_URL names with a
// backup made by `npm run db:backup`. Checks the backup first, asks before replacing (or takes
// --yes), and refuses while a server or any other process has the database open.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { sqlitePathOf } from "../app/db/database.server.ts";
import { BackupError, describeInspection, inspectSqlite, restoreSqlite } from "./lib/sqlite-backup.ts";

const { values, positionals } = parseArgs({
  options: { yes: { type: "boolean", default: false } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file || positionals.length > 1) {
  console.error("Usage: npm run db:restore -- <backup file> [--yes]");
  process.exit(2);
}
if (existsSync(".env")) process.loadEnvFile(".env");
const configured = sqlitePathOf(process.env.DATABASE_URL);
if (configured === null || configured === ":memory:") {
  console.error(
    'DATABASE_URL is not a SQLite file. For PostgreSQL use pg_restore: see docs/operations.md, "Backups".',
  );
  process.exit(2);
}
const target = resolve(configured);

try {
  const incoming = inspectSqlite(resolve(file));
  console.log(describeInspection(resolve(file), incoming));
  const current = existsSync(target) ? inspectSqlite(target) : null;
  const leads = (inspection: typeof incoming) =>
    (inspection.tables.find((table) => table.name === "leads")?.rows ?? 0).toLocaleString("en-GB");
  console.log(
    current
      ? `\nThis replaces ${target} (${leads(current)} leads) with the backup (${leads(incoming)} leads).`
      : `\n${target} does not exist yet: the backup becomes it.`,
  );
  if (!values.yes) {
    if (!process.stdin.isTTY) {
      console.error("Not replacing anything: confirm on a terminal, or pass --yes.");
      process.exit(1);
    }
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await prompt.question('Type "replace" to go on: ');
    prompt.close();
    if (answer.trim() !== "replace") {
      console.log("Nothing replaced.");
      process.exit(1);
    }
  }
  const restored = restoreSqlite(resolve(file), target);
  console.log(`\nRestored. ${describeInspection(target, restored)}`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Restore failed: ${error.message}`);
  process.exitCode = 1;
}
