// `npm run audit:update-hsts-preload [-- --from <url or file>]`: downloads Chromium's HSTS preload
// list (by default from Chromium's source tree, as the MDN HTTP Observatory does) and stores it in
// the database DATABASE_URL names, replacing the previous copy. Run it when deploying and monthly;
// the security audit gives preloaded sites the Observatory's +5 only once it has run.
import { parseArgs } from "node:util";
import {
  CHROMIUM_PRELOAD_LIST_URL,
  updateHstsPreloadList,
} from "../app/features/audits/hsts-preload-list.server.ts";
import { withScriptDatabase } from "./lib/script-database.ts";

const usage = `Usage: npm run audit:update-hsts-preload [-- --from <url or file>]
  --from  Chromium's transport_security_state_static.json (default ${CHROMIUM_PRELOAD_LIST_URL})`;

try {
  const { values } = parseArgs({ options: { from: { type: "string" }, help: { type: "boolean" } } });
  if (values.help) {
    console.log(usage);
  } else {
    await withScriptDatabase(async (database) => {
      const stored = await updateHstsPreloadList(database.db, values.from ?? CHROMIUM_PRELOAD_LIST_URL);
      const count = (n: number) => n.toLocaleString("en-GB");
      console.log(
        `${database.description}: stored ${count(stored.count)} preloaded host names (${count(stored.withSubdomains)} with subdomains) from ${stored.source}`,
      );
    });
  }
} catch (error) {
  console.error(`Could not update the HSTS preload list: ${(error as Error).message}`);
  if ((error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") console.error(usage);
  process.exitCode = 1;
}
