import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
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
let browsers: ChildProcess[] = [];
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
  const hosts = await launchBrowsers(Number(project.config.maxWorkers) || 2);
  browsers = hosts.map((host) => host.process);
  project.provide(
    "browserEndpoints",
    hosts.map((host) => host.endpoint),
  );
}

/**
 * One Chromium per worker for the whole run (issue 33, ADR 038): launching one per test file was
 * about 45 launches a run. Each test still gets a fresh context, so files stay independent. Each
 * browser lives in a process of its own (browser-host.ts); none when any fails to start (each file
 * then launches its own, and says why when it cannot).
 */
async function launchBrowsers(count: number): Promise<{ process: ChildProcess; endpoint: string }[]> {
  const launched = await Promise.allSettled(Array.from({ length: count }, () => launchBrowserHost()));
  const started = launched.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  if (started.length < count) {
    for (const host of started) host.process.kill("SIGTERM");
    return [];
  }
  return started;
}

function launchBrowserHost(): Promise<{ process: ChildProcess; endpoint: string }> {
  const host = spawn(process.execPath, [join(import.meta.dirname, "browser-host.ts")], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      host.kill("SIGKILL");
      reject(new Error("Chromium did not start within 60 s"));
    }, 60_000);
    host.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n")[0] ?? "";
      if (output.includes("\n") && line.startsWith("ws://")) {
        clearTimeout(timer);
        resolve({ process: host, endpoint: line.trim() });
      }
    });
    host.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium's host exited (${code}) before it started`));
    });
  });
}

/** Closes a browser host: stdin's end asks it to close its browser; a kill if it has not within 10 s. */
async function stopBrowserHost(host: ChildProcess): Promise<void> {
  if (host.exitCode !== null || host.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => host.once("exit", () => resolve()));
  host.stdin?.end();
  const timer = setTimeout(() => host.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function teardown() {
  await Promise.all(browsers.map(stopBrowserHost));
  browsers = [];
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
