// `npm run bench` (second part), or alone:
// `npm run bench:leads -- [--duration S] [--connections N] [--checkout DIR] [--json FILE]`
// --checkout runs another checkout's server.ts and build (npm run bench:compare measures a git ref's).
// Lead-submission benchmark: autocannon POSTs genuine demo requests to /api/demo-request on the
// production server (127.0.0.1), first on SQLite, then on PostgreSQL when one is reachable, and counts
// the rows that were actually stored. Each request carries a valid time-trap cookie and its own
// client address (the server trusts one proxy), so validation, the rate-limit upsert, the spam checks
// and the insert are all measured, as for real visitors.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/db/database.server.ts";
import { checkPostgres, createPostgresSchema } from "../tests/support/databases.ts";
import { benchResources } from "./lib/bench-resources.ts";
import { processTreeCpuSeconds } from "./lib/process-cpu.ts";
import { runMain } from "./lib/run-main.ts";
import { ensureBuild } from "./page-weight.ts";

const TARGET_STORED_PER_SECOND = 1_000;
const TARGET_P99_MS = 50;

type Histogram = { average: number; p50: number; p99: number; max: number };
type AutocannonResult = {
  requests: Histogram & { total: number };
  latency: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
};
type RequestSetup = { method: string; path: string; headers: Record<string, string>; body: string };
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  requests: { method: string; path: string; setupRequest: (request: RequestSetup) => RequestSetup }[];
}) => Promise<AutocannonResult> & { stop(): void };
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

type Result = {
  database: string;
  requestsPerSecond: number;
  storedPerSecond: number;
  stored: number;
  created: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
  /** Server CPU per answered request: its cost, independent of how busy the machine was. */
  cpuMicrosecondsPerRequest: number;
};

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    checkout: { type: "string" },
    json: { type: "string" },
  },
});
const resources = benchResources(values.checkout);

async function measure(
  label: string,
  databaseUrl: string,
  options: { duration: number; connections: number },
): Promise<Result> {
  const server = await resources.startServer({
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: "1",
    LOG_LEVEL: "error",
    LEAD_MIN_FILL_SECONDS: "1",
  });
  const page = await fetch(`${server.url}/demo`);
  const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  await new Promise((resolve) => setTimeout(resolve, 1100));

  const database = openDatabase(databaseUrl, { poolSize: 1 });
  const count = async () =>
    Number(
      (
        await database.db
          .selectFrom("leads")
          .select((eb) => eb.fn.countAll().as("count"))
          .where("isSpam", "=", 0)
          .executeTakeFirstOrThrow()
      ).count,
    );
  let sequence = 0;
  const setupRequest = (request: RequestSetup): RequestSetup => {
    const n = ++sequence;
    return {
      ...request,
      headers: {
        "content-type": "application/json",
        cookie,
        // 65,536 distinct clients: each stays far below the per-client limit.
        "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      },
      body: JSON.stringify({
        fullName: `Bench Visitor ${n}`,
        email: `visitor${n}@bench.example.com`,
        company: "Benchmark Construction Ltd",
        phone: "+44 20 7946 0000",
        message: "Load test submission: 40 subcontracts per project, NEC4 and JCT.",
      }),
    };
  };
  const run = (duration: number) =>
    autocannon({
      url: server.url,
      connections: options.connections,
      duration,
      timeout: 10,
      requests: [{ method: "POST", path: "/api/demo-request", setupRequest }],
    });

  console.error(`${label}: warm-up 2 s`);
  await run(2);
  // Let the warm-up's last requests finish before counting.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = await count();
  console.error(`${label}: ${options.connections} connections for ${options.duration} s`);
  const cpuBefore = processTreeCpuSeconds(server.pid);
  const started = performance.now();
  const result = await run(options.duration);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = processTreeCpuSeconds(server.pid) - cpuBefore;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const stored = (await count()) - before;
  await database.close();
  await server.stop();
  return {
    database: label,
    requestsPerSecond: result.requests.average,
    storedPerSecond: stored / elapsed,
    stored,
    created: result["2xx"],
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    failures: result.errors + result.timeouts + result.non2xx,
    cpuMicrosecondsPerRequest: (cpu * 1e6) / Math.max(1, result.requests.total),
  };
}

async function main(): Promise<number> {
  const options = { duration: Number(values.duration), connections: Number(values.connections) };
  ensureBuild(values.checkout);
  console.log(
    `\nLead submissions: POST /api/demo-request, ${options.connections} connections, ${options.duration} s, ` +
      `${cpus().length} cores, Node ${process.version}${values.checkout ? `, server from ${values.checkout}` : ""}\n`,
  );

  const results: Result[] = [];
  const dir = mkdtempSync(join(tmpdir(), "bench-leads-"));
  resources.defer(async () => rmSync(dir, { recursive: true, force: true }));
  results.push(await measure("SQLite (WAL, synchronous=NORMAL)", join(dir, "bench.sqlite"), options));
  if (await checkPostgres()) {
    const schema = await createPostgresSchema();
    resources.defer(schema.drop);
    results.push(await measure("PostgreSQL 127.0.0.1 (pool 10)", schema.url, options));
  } else {
    console.log("PostgreSQL is not reachable: measured SQLite only.\n");
  }

  console.log(
    "| Database | Requests/s | Stored leads/s | Stored / 201 answers | p50 ms | p99 ms | max ms | Failures | Server CPU µs/request |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of results) {
    console.log(
      `| ${r.database} | ${Math.round(r.requestsPerSecond).toLocaleString("en-GB")} | ` +
        `${Math.round(r.storedPerSecond).toLocaleString("en-GB")} | ${r.stored.toLocaleString("en-GB")} / ` +
        `${r.created.toLocaleString("en-GB")} | ${r.p50} | ${r.p99} | ${r.max} | ${r.failures} | ` +
        `${Math.round(r.cpuMicrosecondsPerRequest)} |`,
    );
  }
  if (values.json) {
    const report = {
      measuredAt: new Date().toISOString(),
      checkout: values.checkout ?? null,
      options,
      results,
    };
    writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  const sqlite = results[0];
  if (!sqlite) return 1;
  const verdict = (ok: boolean) => (ok ? "yes" : "NO");
  console.log("\nTargets (SQLite):");
  console.log(
    `- >= ${TARGET_STORED_PER_SECOND.toLocaleString("en-GB")} stored submissions/s: ` +
      `${verdict(sqlite.storedPerSecond >= TARGET_STORED_PER_SECOND)} (${Math.round(sqlite.storedPerSecond)})`,
  );
  console.log(`- p99 < ${TARGET_P99_MS} ms: ${verdict(sqlite.p99 < TARGET_P99_MS)} (${sqlite.p99} ms)`);
  // A request still in flight when the run stops may be stored without its answer being counted, so
  // stored >= answered; fewer stored rows than 201 answers would mean a lost lead.
  const lost = results.filter((r) => r.stored < r.created);
  if (lost.length > 0) {
    console.log(
      `- LOST LEADS: fewer stored rows than 201 answers for ${lost.map((r) => r.database).join(", ")}`,
    );
    return 1;
  }
  console.log("- every 201 answer has its stored row: yes");
  return 0;
}

await runMain("bench-leads", main, resources.cleanup);
