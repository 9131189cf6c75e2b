// `npm run db:purge [-- --dry-run]`: the retention purge the server runs daily (docs/operations.md,
// "Retention"), by hand: anonymises leads past LEAD_RETENTION_MONTHS, deletes held spam past
// SPAM_RETENTION_DAYS, sent outbox rows past OUTBOX_RETENTION_DAYS and expired sessions and
// throttle counters. `--dry-run` prints what would go and changes nothing. It prints counts only.
import { parseArgs } from "node:util";
import { parseEnv } from "../app/env.server.ts";
import { type PurgeCount, runPurge } from "../app/lib/purge.server.ts";
import { retentionCategories } from "../composition/retention.server.ts";
import { withScriptDatabase } from "./lib/script-database.ts";

const usage = `Usage: npm run db:purge [-- --dry-run]
  --dry-run  count what the purge would remove, and change nothing`;

function table(counts: readonly PurgeCount[]): string {
  const width = Math.max(...counts.map((count) => count.label.length));
  return counts
    .map(({ label, count }) => `  ${label.padEnd(width)}  ${count.toLocaleString("en-GB").padStart(7)}`)
    .join("\n");
}

try {
  const { values } = parseArgs({ options: { "dry-run": { type: "boolean" }, help: { type: "boolean" } } });
  if (values.help) {
    console.log(usage);
  } else {
    await withScriptDatabase(async (database) => {
      const dryRun = values["dry-run"] === true;
      const categories = retentionCategories(database.db, parseEnv());
      const result = await runPurge({ db: database.db, categories, dryRun });
      if (!result.ran) {
        console.error(
          `${database.description}: another instance is purging right now; nothing done. Try again in a few minutes.`,
        );
        process.exitCode = 1;
        return;
      }
      console.log(
        dryRun
          ? `${database.description}: dry run, nothing changed. The purge would now remove or anonymise:`
          : `${database.description}: purged:`,
      );
      console.log(table(result.counts));
    });
  }
} catch (error) {
  console.error(`Could not purge: ${(error as Error).message}`);
  if ((error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") console.error(usage);
  process.exitCode = 1;
}
