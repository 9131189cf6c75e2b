// `npm run bench:login -- [--burst N] [--duration S] [--connections N] [--postgres] [--flood]`
// Issue 9 point 2: a burst of sign-ins must not starve everyone else. Measures the throughput of a
// cheap signed-in endpoint (GET /api/user, autocannon) while idle, then while `--burst` wrong-password
// sign-ins are kept in flight (each one that answers is replaced at once), every one from its own
// address (the server trusts one proxy) and for its own username, so the throttle refuses none of
// them and only the hashing bound decides. Like a browser (and a person) told to wait, a sign-in
// answered 503 waits its Retry-After before the next; `--flood` retries at once instead, which
// measures how requests share the server under a flood rather than what hashing costs. Prints both
// figures, their ratio and what the sign-ins were answered. SQLite by default (--postgres adds
// PostgreSQL when reachable). Only 127.0.0.1.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createAccount, signIn } from "../tests/e2e/support/accounts.ts";
import { checkPostgres, createPostgresSchema } from "../tests/support/databases.ts";
import { benchResources } from "./lib/bench-resources.ts";
import { runMain } from "./lib/run-main.ts";
import { ensureBuild } from "./page-weight.ts";

const ADMIN = { username: "bench-admin", password: "bench admin passphrase" };

type AutocannonResult = { requests: { average: number }; latency: { p99: number }; non2xx: number };
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  headers: Record<string, string>;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

type Throughput = { rps: number; p99: number; non2xx: number };
type Result = {
  database: string;
  idle: Throughput;
  burst: Throughput;
  signIns: Record<string, number>;
  signInP50: number;
};

const resources = benchResources();

async function userThroughput(baseUrl: string, cookie: string, options: Options): Promise<Throughput> {
  const result = await autocannon({
    url: `${baseUrl}/api/user`,
    connections: options.connections,
    duration: options.duration,
    timeout: 30,
    headers: { cookie },
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

/** Keeps `size` wrong-password sign-ins in flight until `stop()`; counts their answers by status. */
function startBurst(baseUrl: string, size: number, flood: boolean) {
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  let running = true;
  let sequence = 0;
  const one = async (): Promise<void> => {
    while (running) {
      const n = ++sequence;
      const started = performance.now();
      let status = "error";
      try {
        const response = await fetch(`${baseUrl}/api/login`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Origin: baseUrl,
            // 10.0.0.0/8 holds 16 million addresses: no two sign-ins of a run share one.
            "X-Forwarded-For": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          },
          body: JSON.stringify({ username: `burst-${n}`, password: "not the password at all" }),
        });
        await response.arrayBuffer();
        status = String(response.status);
        const wait = Number(response.headers.get("retry-after") ?? 0);
        if (!flood && response.status === 503 && wait > 0) {
          statuses[status] = (statuses[status] ?? 0) + 1;
          times.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, wait * 1000));
          continue;
        }
      } catch {
        // Counted as "error"; the loop goes on.
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      times.push(performance.now() - started);
    }
  };
  const workers = Array.from({ length: size }, one);
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      const sorted = times.sort((a, b) => a - b);
      return { statuses, p50: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN };
    },
  };
}

type Options = { burst: number; duration: number; connections: number; flood: boolean };

async function measure(label: string, databaseUrl: string, options: Options): Promise<Result> {
  const server = await resources.startServer({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "error",
    TRUST_PROXY: "1",
  });
  await createAccount(databaseUrl, { ...ADMIN, isAdmin: true });
  const cookie = await signIn(server.url, ADMIN.username, ADMIN.password);
  console.error(`${label}: ${options.duration} s idle`);
  const idle = await userThroughput(server.url, cookie, options);
  console.error(`${label}: ${options.duration} s during ${options.burst} parallel sign-ins`);
  const burst = startBurst(server.url, options.burst, options.flood);
  // The first sign-ins reach the server before the measurement starts.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const during = await userThroughput(server.url, cookie, options);
  const signIns = await burst.stop();
  await server.stop();
  return { database: label, idle, burst: during, signIns: signIns.statuses, signInP50: signIns.p50 };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      burst: { type: "string", default: "200" },
      duration: { type: "string", default: "5" },
      connections: { type: "string", default: "10" },
      postgres: { type: "boolean", default: false },
      flood: { type: "boolean", default: false },
    },
  });
  const options: Options = {
    burst: Number(values.burst),
    duration: Number(values.duration),
    connections: Number(values.connections),
    flood: values.flood,
  };
  ensureBuild();
  console.log(
    `\nGET /api/user (signed in, ${options.connections} connections, ${options.duration} s) idle vs during ` +
      `${options.burst} parallel wrong-password sign-ins${options.flood ? " (flood: no wait after 503)" : ""}; ${availableParallelism()} cores, Node ${process.version}\n`,
  );
  const results: Result[] = [];
  const dir = mkdtempSync(join(tmpdir(), "bench-login-"));
  resources.defer(async () => rmSync(dir, { recursive: true, force: true }));
  results.push(await measure("SQLite", join(dir, "bench.sqlite"), options));
  if (values.postgres && (await checkPostgres())) {
    const schema = await createPostgresSchema();
    resources.defer(schema.drop);
    results.push(await measure("PostgreSQL", schema.url, options));
  }
  console.log(
    "| Database | Idle req/s | Idle p99 ms | Burst req/s | Burst p99 ms | Ratio | Sign-in answers | Sign-in p50 ms |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
  for (const r of results) {
    const answers = Object.entries(r.signIns)
      .sort()
      .map(([status, count]) => `${count} × ${status}`)
      .join(", ");
    console.log(
      `| ${r.database} | ${Math.round(r.idle.rps)} | ${r.idle.p99} | ${Math.round(r.burst.rps)} | ${r.burst.p99} | ` +
        `${(r.burst.rps / r.idle.rps).toFixed(2)} | ${answers} | ${Math.round(r.signInP50)} |`,
    );
  }
  return results.every((r) => r.idle.non2xx === 0 && r.burst.non2xx === 0) ? 0 : 1;
}

await runMain("bench-login-burst", main, resources.cleanup);
