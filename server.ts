// Production entry point: `node server.ts` (through `npm start`, which builds first when needed).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { parseEnv } from "./app/env.server.ts";
import type { createServices as CreateServices } from "./composition/services.server.ts";
import { createAppServer } from "./server/http-server.ts";
import { createRequestLog } from "./server/request-log.ts";

// A local .env file (see .env.example) fills in what the real environment does not set.
if (existsSync(".env")) process.loadEnvFile(".env");

const env = (() => {
  try {
    return parseEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
})();

const buildDir = join(import.meta.dirname, "build");
const serverEntry = join(buildDir, "server", "index.js");
if (!existsSync(serverEntry)) {
  console.error("No production build found: run `npm run build` (or `npm start`, which builds first).");
  process.exit(1);
}
// stdout is this log alone, one JSON object a line (LOG_FORMAT=json): requests, the retention purge's
// counts, shutdown. Start-up hints are plain lines on stderr (issue 22).
const requestLog = createRequestLog(
  env.LOG_LEVEL,
  env.LOG_FORMAT ?? (env.NODE_ENV === "development" ? "pretty" : "json"),
);
const log = requestLog.logger;
// Whatever way the process ends, the buffered lines are written first.
process.on("exit", () => requestLog.flush());
const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
// From the build, not the source: one copy of the app code and of its context keys (see entry.server.tsx).
const { createServices } = build.entry.module as unknown as { createServices: typeof CreateServices };
const services = await (async () => {
  try {
    return await createServices(env);
  } catch (error) {
    console.error(`Start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }
})();
if (env.LOG_LEVEL !== "silent") console.error(`Database: ${services.database.description}`);
const backgroundWork = services.startBackgroundWork({ info: (message) => log.info(message) });
const server = createAppServer({ env, build, buildDir, services, requestLog });
// Keep-alive longer than common proxies' idle timeout so they never reuse a socket we just closed.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const host = env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
  if (env.LOG_LEVEL !== "silent") console.error(`Server listening on http://${host}:${port}`);
});

let shuttingDown = false;
function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  log.info({ signal }, `${signal} received, closing the server`);
  // The outbox worker stops alongside the requests (a send in progress finishes and is recorded);
  // the database closes only when both are done with it and the buffered page views are written.
  const backgroundStopped = backgroundWork.stop();
  server.close(() => {
    // Connections are closed, but a submission whose visitor left may still be writing: let it end.
    // Then the page views still buffered are written (ADR 014): the last requests are counted too.
    Promise.allSettled([backgroundStopped, services.whenIdle()])
      .then(() => services.pageViews.stop())
      .finally(() => services.database.close().finally(() => process.exit(0)));
  });
  server.closeIdleConnections();
  // Give in-flight requests ten seconds, then stop regardless.
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
