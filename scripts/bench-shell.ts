// npm run bench:shell — what the back office's app shell (issue 23) adds to a page's server time.
//
// One process, one build, two request handlers over the same services and database: the build as
// shipped, and the same build with the guarded layout reduced to what a back office without a shell
// needs (the guard, the signed-in person for the page below, an <Outlet/>). Requests to each alternate,
// so both see the same machine load; the difference of their means is the shell's cost (its counts,
// its navigation, search and account menu rendered and serialised). Prints figures, asserts nothing.
// Needs `npm run build` first.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createElement } from "react";
import {
  createRequestHandler,
  Outlet,
  type RouterContext,
  RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { parseEnv } from "../app/env.server.ts";
import { createSession } from "../app/features/auth/sessions.server.ts";
import { createUser } from "../app/features/auth/users.server.ts";
import type { Services } from "../composition/services.server.ts";
import { leadRow } from "../tests/support/lead-rows.ts";
import { runMain } from "./lib/run-main.ts";

const LAYOUT = "routes/admin/guarded-layout";
const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "400" },
    leads: { type: "string", default: "2000" },
  },
});
const REQUESTS = Number(values.requests);
const LEADS = Number(values.leads);
const PAGES = ["/admin/account", "/admin/dashboard", "/admin/analytics"];

type Entry = {
  createServices(env: ReturnType<typeof parseEnv>, options?: { timeTrap?: boolean }): Promise<Services>;
  provideServices(context: RouterContextProvider, provided: Services["provided"]): void;
  clientAddressContext: RouterContext<string>;
  cspNonceContext: RouterContext<string>;
};

/** The build with the layout a back office without a shell would have: guard, person, outlet. */
function withoutShell(build: ServerBuild): ServerBuild {
  const layout = build.routes[LAYOUT];
  if (!layout) throw new Error(`No ${LAYOUT} in the build.`);
  const original = layout.module;
  const loader = original.loader;
  if (!loader) throw new Error("The guarded layout has no loader.");
  const module = {
    ...original,
    // The pages below read the person from the layout's data: kept, without the shell's counts.
    loader: async (args: Parameters<typeof loader>[0]) => {
      const { user } = (await loader(args)) as { user: unknown };
      return { user, counts: null };
    },
    default: () => createElement("main", null, createElement(Outlet)),
  };
  return { ...build, routes: { ...build.routes, [LAYOUT]: { ...layout, module } } };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

let directory: string | undefined;
let services: Services | undefined;

async function main(): Promise<number> {
  const build = (await import(
    pathToFileURL(join(process.cwd(), "build/server/index.js")).href
  )) as ServerBuild;
  const entry = build.entry.module as unknown as Entry;
  directory = mkdtempSync(join(tmpdir(), "bench-shell-"));
  const env = parseEnv({ ...process.env, DATABASE_URL: join(directory, "bench.db"), LOG_LEVEL: "silent" });
  services = await entry.createServices(env, { timeTrap: false });
  const db = services.database.db;
  const user = await createUser(db, {
    username: "bench-admin",
    password: "a long bench password 1",
    isAdmin: true,
  });
  for (let start = 0; start < LEADS; start += 500) {
    const rows = Array.from({ length: Math.min(500, LEADS - start) }, (_, index) =>
      leadRow({ fullName: `Bench Lead ${start + index}`, email: `lead${start + index}@bench.example` }),
    );
    await db.insertInto("leads").values(rows).execute();
  }
  const { token } = await createSession(db, user.id, { idleMs: 3_600_000, absoluteMs: 3_600_000 });
  const handlers = {
    shell: createRequestHandler(build, "production"),
    bare: createRequestHandler(withoutShell(build), "production"),
  };
  const provided = services.provided;
  const request = async (
    handler: (request: Request, context: RouterContextProvider) => Promise<Response>,
    path: string,
  ) => {
    const context = new RouterContextProvider();
    context.set(entry.cspNonceContext, "bench");
    entry.provideServices(context, provided);
    context.set(entry.clientAddressContext, "127.0.0.1");
    const started = performance.now();
    const response = await handler(
      new Request(`http://127.0.0.1${path}`, { headers: { Cookie: `session=${token}` } }),
      context,
    );
    const body = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.slice(0, 200)}`);
    return { ms, bytes: body.length };
  };

  console.log(
    `bench:shell — ${REQUESTS} requests per page and variant, alternating, ${LEADS} leads (SQLite)\n`,
  );
  console.log(
    "| page | with the shell: mean / median ms | without: mean / median ms | shell adds (mean) | HTML bytes with / without |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const path of PAGES) {
    for (let warm = 0; warm < 40; warm++) {
      await request(handlers.shell, path);
      await request(handlers.bare, path);
    }
    const times = { shell: [] as number[], bare: [] as number[] };
    let bytes = { shell: 0, bare: 0 };
    for (let index = 0; index < REQUESTS; index++) {
      // Alternate which goes first, so neither always follows the other's garbage.
      const order = index % 2 === 0 ? (["shell", "bare"] as const) : (["bare", "shell"] as const);
      for (const variant of order) {
        const result = await request(handlers[variant], path);
        times[variant].push(result.ms);
        bytes = { ...bytes, [variant]: result.bytes };
      }
    }
    const added = mean(times.shell) - mean(times.bare);
    console.log(
      `| ${path} | ${mean(times.shell).toFixed(2)} / ${median(times.shell).toFixed(2)} | ` +
        `${mean(times.bare).toFixed(2)} / ${median(times.bare).toFixed(2)} | ${added.toFixed(2)} ms | ` +
        `${bytes.shell} / ${bytes.bare} |`,
    );
  }
  return 0;
}

await runMain("bench:shell", main, async () => {
  await services?.database.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});
