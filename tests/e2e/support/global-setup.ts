import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserServer, chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { CHROMIUM_HEADLESS_ARGS, CHROMIUM_PATH } from "../../../scripts/lib/chromium.ts";
import { type RunningServer, startServer } from "../../../scripts/lib/server-process.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The e2e server's own SQLite file (tests read it to check what was stored). */
    databaseUrl: string;
    /** The admin the e2e server creates at start-up (ADMIN_USERNAME / ADMIN_PASSWORD). */
    adminUsername: string;
    adminPassword: string;
    /**
     * The suite's Chromiums, one per e2e worker (launchTestBrowser connects to its worker's): empty
     * when Chromium could not start, and each file then launches its own and says why it cannot.
     */
    browserEndpoints: string[];
  }
}

const root = join(import.meta.dirname, "..", "..", "..");
let server: RunningServer | undefined;
let dataDir: string | undefined;
let browsers: BrowserServer[] = [];
const ADMIN = { username: "e2e-admin", password: "e2e admin passphrase" };

/** Starts the production server (server.ts) on a free port for the whole e2e run. */
export async function setup(project: TestProject) {
  if (!existsSync(join(root, "build", "static-manifest.json"))) {
    throw new Error("No production build: run `npm run build` first (npm test does it for you).");
  }
  dataDir = mkdtempSync(join(tmpdir(), "e2e-data-"));
  const databaseUrl = join(dataDir, "e2e.sqlite");
  server = await startServer({
    DATABASE_URL: databaseUrl,
    // The journeys submit many forms from one address within seconds; the limit and the time trap
    // have their own tests (app/features/leads, tests/e2e/lead-api.test.ts).
    LEAD_RATE_LIMIT: "0",
    LEAD_MIN_FILL_SECONDS: "0",
    // The audit tests audit this very server on 127.0.0.1.
    AUDIT_ALLOW_PRIVATE_TARGETS: "true",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", databaseUrl);
  project.provide("adminUsername", ADMIN.username);
  project.provide("adminPassword", ADMIN.password);
  browsers = await launchBrowsers(Number(project.config.maxWorkers) || 2);
  project.provide(
    "browserEndpoints",
    browsers.map((browser) => browser.wsEndpoint()),
  );
}

/**
 * One Chromium per worker for the whole run (issue 33, ADR 038): launching one per test file was
 * about 45 launches a run. Each test still gets a fresh context, so files stay independent.
 */
async function launchBrowsers(count: number): Promise<BrowserServer[]> {
  const launched = await Promise.allSettled(
    Array.from({ length: count }, () =>
      chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_HEADLESS_ARGS }),
    ),
  );
  const started = launched.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  if (started.length < count) {
    await Promise.all(started.map((browser) => browser.close()));
    return [];
  }
  return started;
}

export async function teardown() {
  await Promise.all(browsers.map((browser) => browser.close()));
  browsers = [];
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
