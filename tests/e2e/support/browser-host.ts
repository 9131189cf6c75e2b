// One of the e2e suite's shared Chromiums (ADR 038), in a process of its own: started by
// global-setup.ts, it launches Chromium as a Playwright browser server, prints its websocket endpoint
// on its first line, and closes the browser when stdin closes or a signal comes, so the browser never
// outlives the run. Its own process keeps the browsers' protocol traffic off Vitest's main process,
// which also serves both workers' modules and results.
import { chromium } from "playwright-core";
import { CHROMIUM_HEADLESS_ARGS, TEST_CHROMIUM_PATH } from "../../../scripts/lib/chromium.ts";

const server = await chromium.launchServer({
  executablePath: TEST_CHROMIUM_PATH,
  args: CHROMIUM_HEADLESS_ARGS,
});
let closing = false;
async function close() {
  if (closing) return;
  closing = true;
  await server.close().catch(() => {});
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, close);
process.stdin.on("end", close);
process.stdin.on("close", close);
process.stdin.resume();
process.stdout.write(`${server.wsEndpoint()}\n`);
