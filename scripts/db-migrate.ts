// `npm run db:migrate`: applies pending migrations to the database DATABASE_URL names (the server
// also does this at start-up; this is for deploy pipelines that migrate before starting instances).
import { withScriptDatabase } from "./lib/script-database.ts";

try {
  await withScriptDatabase(async (database, applied) => {
    console.log(
      applied.length > 0
        ? `${database.description}: applied ${applied.join(", ")}`
        : `${database.description}: already up to date`,
    );
  });
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
