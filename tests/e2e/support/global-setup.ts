import { existsSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { type RunningServer, startServer } from "../../../scripts/lib/server-process.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const root = join(import.meta.dirname, "..", "..", "..");
let server: RunningServer | undefined;

/** Starts the production server (server.ts) on a free port for the whole e2e run. */
export async function setup(project: TestProject) {
  if (!existsSync(join(root, "build", "static-manifest.json"))) {
    throw new Error("No production build: run `npm run build` first (npm test does it for you).");
  }
  server = await startServer();
  project.provide("baseUrl", server.url);
}

export async function teardown() {
  await server?.stop();
}
