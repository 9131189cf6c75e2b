// `npm run bench [-- --duration S] [--connections N] [--path /x] [--warmup S] [--checkout DIR] [--json FILE]`
// (--checkout: another checkout's server.ts and build/client, for npm run bench:compare)
// Load test of the production build: server.ts with page-view counting off, then on (issue 12), then
// nginx serving the same build/client folder as a reference, each driven identically by autocannon
// (in this process) with `Accept-Encoding: br, gzip`, a desktop browser's User-Agent and a different
// X-Forwarded-For per request (server.ts runs with TRUST_PROXY=1), so every request is a new visitor.
// Only 127.0.0.1. Every child process is stopped at the end, on error, on Ctrl-C and on a watchdog.
//
// nginx runs with `worker_processes 1`: server.ts is one Node process on one core, the machine has two
// cores and the load generator needs the other one. `auto` (2 workers) would make nginx and autocannon
// fight for the same cores, which lowers and blurs both figures instead of showing nginx's best.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/db/database.server.ts";
import { STATIC_MANIFEST_FILE, type StaticManifest } from "../server/static-manifest.ts";
import { processTreeCpuSeconds } from "./lib/process-cpu.ts";
import { runMain } from "./lib/run-main.ts";
import { type RunningServer, startServer } from "./lib/server-process.ts";
import { ensureBuild } from "./page-weight.ts";

const root = join(import.meta.dirname, "..");
/** The checkout measured (--checkout), this one by default; set by parseOptions. */
let checkout = root;
const clientDir = () => join(checkout, "build", "client");
// NGINX_PATH overrides where nginx is looked for (an empty or missing path measures server.ts alone).
const NGINX = (
  process.env.NGINX_PATH !== undefined ? [process.env.NGINX_PATH] : ["/usr/sbin/nginx", "/usr/bin/nginx"]
).find((path) => path && existsSync(path));
const HOST = "127.0.0.1";
const ACCEPT_ENCODING = "br, gzip";

/** Targets of the performance issue, for server.ts. */
const TARGET_RPS = 10_000;
const TARGET_SHARE_OF_NGINX = 0.4;
const TARGET_P99_MS = 20;
/** Issue 22: server CPU per request at most this many times nginx's, counting on. */
const TARGET_CPU_OF_NGINX = 2;
/** Issue 12: counting page views keeps this share of the requests/s and of the CPU efficiency. */
const TARGET_ANALYTICS_SHARE = 0.9;

/** A desktop browser: bots are not counted, so the load must look like a visitor to measure counting. */
const DESKTOP_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
let visitorNumber = 0;
/** A different private address on every request: each one a new visitor. */
function nextForwardedFor(): string {
  visitorNumber = (visitorNumber + 1) % 16_777_216;
  return `10.${visitorNumber >> 16}.${(visitorNumber >> 8) & 255}.${visitorNumber & 255}`;
}

// --- autocannon (CommonJS, no bundled types): the parts used here. ---
type Histogram = { average: number; p50: number; p97_5: number; p99: number; max: number };
type AutocannonResult = {
  requests: Histogram & { total: number };
  latency: Histogram;
  throughput: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
};
type AutocannonInstance = Promise<AutocannonResult> & { stop: () => void };
type AutocannonRequest = { headers?: Record<string, string> };
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  pipelining: number;
  headers: Record<string, string>;
  timeout: number;
  requests?: { setupRequest(request: AutocannonRequest): AutocannonRequest }[];
}) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** The prerendered page a studio page is compared with when --path is not a file of the build. */
const PRERENDERED_REFERENCE = "/problem";

/** Is `path` a file of the build (a prerendered page or an asset), as the static manifest lists them? */
function isBuildFile(path: string): boolean {
  const manifest = JSON.parse(
    readFileSync(join(checkout, "build", STATIC_MANIFEST_FILE), "utf8"),
  ) as StaticManifest;
  return (path.split("?")[0] as string) in manifest.entries;
}

type Target = { name: string; baseUrl: string; note: string; pid?: number; databaseUrl?: string };
type Measurement = {
  target: string;
  note: string;
  contentEncoding: string;
  bodyBytes: number;
  requestsPerSecond: number;
  /** CPU used during the measured run, in % of one core: the server (with its workers) and autocannon. */
  serverCpuPercent: number;
  loadGeneratorCpuPercent: number;
  /** CPU used by every other process on the machine meanwhile (other jobs disturb the figures). */
  otherCpuPercent: number;
  totalRequests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  throughputMBps: number;
};

// --- Child processes and the running load, cleaned up whatever happens. ---
const children = new Set<ChildProcess>();
let running: AutocannonInstance | undefined;
const tempDirs: string[] = [];

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return;
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(force);
  children.delete(child);
}

async function cleanup(): Promise<void> {
  running?.stop();
  running = undefined;
  await stopAppServer();
  await Promise.all([...children].map((child) => stopChild(child)));
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** One GET as a browser would send it: status, Content-Encoding and body size on the wire. */
async function probe(url: string): Promise<{ status: number; encoding: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { "Accept-Encoding": ACCEPT_ENCODING }, timeout: 5_000 }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: String(res.headers["content-encoding"] ?? "identity"),
          bytes,
        }),
      );
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on("error", reject);
    req.end();
  });
}

async function waitUntilServing(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited early with code ${child.exitCode}`);
    try {
      await probe(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${name} did not answer ${url} within 20 s`);
}

let appServer: RunningServer | undefined;

async function startAppServer(analytics: "on" | "off"): Promise<Target> {
  // A database of its own per run, so the page views it stored can be counted afterwards.
  const dir = mkdtempSync(join(tmpdir(), "bench-app-"));
  tempDirs.push(dir);
  const databaseUrl = join(dir, "bench.sqlite");
  appServer = await startServer(
    { DATABASE_URL: databaseUrl, TRUST_PROXY: "1", ANALYTICS: analytics },
    { checkout },
  );
  return {
    name: `server.ts, analytics ${analytics}`,
    baseUrl: appServer.url,
    pid: appServer.pid,
    databaseUrl,
    note: `Node 24, one process, pages from memory (br/gzip precompressed), ANALYTICS=${analytics}, SQLite`,
  };
}

/** Page views the run stored (read after the server stopped, so its last batch is written). */
async function storedPageViews(databaseUrl: string): Promise<number> {
  const database = openDatabase(databaseUrl);
  try {
    // A checkout from before page-view counting (bench:compare of an older ref) has no such table.
    if (!(await database.db.introspection.getTables()).some((t) => t.name === "analytics_page_views"))
      return Number.NaN;
    const row = await database.db
      .selectFrom("analyticsPageViews")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  } finally {
    await database.close();
  }
}

async function stopAppServer(): Promise<void> {
  const server = appServer;
  appServer = undefined;
  await server?.stop();
}

/**
 * Debian's dynamic brotli module (package libnginx-mod-http-brotli-static), used when installed, so
 * nginx sends the same .br files as server.ts. NGINX_BROTLI_MODULE points at another copy (e.g. one
 * unpacked with `apt-get download` + `dpkg-deb -x`, no install needed).
 */
const BROTLI_STATIC_MODULE =
  process.env.NGINX_BROTLI_MODULE || "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

type BrotliSupport = "built-in" | "module" | "none";

function nginxBrotli(nginx: string): BrotliSupport {
  const version = spawnSync(nginx, ["-V"], { encoding: "utf8" });
  if (/brotli/i.test(`${version.stdout}${version.stderr}`)) return "built-in";
  return existsSync(BROTLI_STATIC_MODULE) ? "module" : "none";
}

function nginxConfig(prefix: string, port: number, brotli: BrotliSupport): string {
  const mimeTypes = "/etc/nginx/mime.types";
  const types = existsSync(mimeTypes)
    ? `include ${mimeTypes};`
    : "types { text/html html; text/css css; text/javascript js; image/svg+xml svg; application/json json; }";
  return `# Generated by scripts/bench.ts; removed after the run.
${brotli === "module" ? `load_module ${BROTLI_STATIC_MODULE};\n` : ""}worker_processes 1;
pid ${prefix}/nginx.pid;
lock_file ${prefix}/nginx.lock;
error_log ${prefix}/error.log warn;
daemon off;

events {
  worker_connections 1024;
}

http {
  ${types}
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65s;
  # autocannon keeps its connections open; do not make it reconnect every 1000 requests.
  keepalive_requests 100000;
  open_file_cache max=1000 inactive=60s;
  open_file_cache_valid 60s;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;

  gzip off;
  gzip_static on;${brotli === "none" ? "" : "\n  brotli_static on;"}
  gzip_vary on;

  server {
    listen ${HOST}:${port};
    root ${clientDir()};
    index index.html;
    location / {
      try_files $uri $uri/index.html =404;
    }
  }
}
`;
}

async function startNginx(nginx: string): Promise<Target> {
  const prefix = mkdtempSync(join(tmpdir(), "bench-nginx-"));
  tempDirs.push(prefix);
  const port = await freePort();
  const conf = join(prefix, "nginx.conf");
  const brotli = nginxBrotli(nginx);
  writeFileSync(conf, nginxConfig(prefix, port, brotli));
  const test = spawnSync(nginx, ["-t", "-q", "-c", conf, "-p", prefix, "-e", join(prefix, "error.log")], {
    encoding: "utf8",
  });
  if (test.status !== 0) throw new Error(`nginx rejected the generated config:\n${test.stderr}`);
  const child = track(
    spawn(nginx, ["-c", conf, "-p", prefix, "-e", join(prefix, "error.log")], {
      stdio: ["ignore", "inherit", "inherit"],
    }),
  );
  const baseUrl = `http://${HOST}:${port}`;
  await waitUntilServing(`${baseUrl}/`, child, "nginx");
  const note =
    brotli === "none"
      ? "worker_processes 1, gzip_static on; no brotli module (libnginx-mod-http-brotli-static): sends the .gz files"
      : "worker_processes 1, gzip_static and brotli_static on";
  return { name: "nginx", baseUrl, pid: child.pid, note };
}

/**
 * Node's floor: the same prepared files and headers from a bare node:http server (this checkout's
 * server/static-files.ts over the measured build), so the table shows what is Node's and what is ours.
 */
async function startNodeFloor(): Promise<Target> {
  const port = await freePort();
  const child = track(
    spawn(
      process.execPath,
      [join(root, "scripts", "lib", "static-floor-server.ts"), join(checkout, "build"), String(port)],
      {
        stdio: ["ignore", "inherit", "ignore"],
      },
    ),
  );
  const baseUrl = `http://${HOST}:${port}`;
  await waitUntilServing(`${baseUrl}/`, child, "node:http floor");
  return {
    name: "node:http floor",
    baseUrl,
    pid: child.pid,
    note: "the same files and headers from a bare node:http server (scripts/lib/static-floor-server.ts): no guard, id, log, metrics or counting",
  };
}

/** Busy CPU seconds of the whole machine so far (all cores, from /proc/stat); NaN where unavailable. */
function machineBusySeconds(): number {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
    // cpu user nice system idle iowait irq softirq steal ...
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return Number.NaN;
  }
}

async function load(url: string, connections: number, duration: number): Promise<AutocannonResult> {
  running = autocannon({
    url,
    connections,
    duration,
    pipelining: 1,
    headers: { "accept-encoding": ACCEPT_ENCODING, "user-agent": DESKTOP_USER_AGENT },
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, "x-forwarded-for": nextForwardedFor() },
        }),
      },
    ],
  });
  try {
    return await running;
  } finally {
    running = undefined;
  }
}

async function measure(target: Target, path: string, options: Options): Promise<Measurement> {
  const url = `${target.baseUrl}${path}`;
  const check = await probe(url);
  if (check.status !== 200) throw new Error(`${target.name} answered ${url} with ${check.status}, not 200`);
  if (options.warmup > 0) {
    console.error(`${target.name}: warm-up ${options.warmup} s`);
    await load(url, options.connections, options.warmup);
  }
  console.error(`${target.name}: ${options.connections} connections for ${options.duration} s on ${path}`);
  const machineBefore = machineBusySeconds();
  const serverCpuBefore = processTreeCpuSeconds(target.pid);
  const ownCpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const result = await load(url, options.connections, options.duration);
  const elapsed = (performance.now() - startedAt) / 1000;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const serverCpu = processTreeCpuSeconds(target.pid) - serverCpuBefore;
  const machineBusy = machineBusySeconds() - machineBefore;
  const ownSeconds = (ownCpu.user + ownCpu.system) / 1e6;
  return {
    target: target.name,
    note: target.note,
    contentEncoding: check.encoding,
    bodyBytes: check.bytes,
    requestsPerSecond: result.requests.average,
    serverCpuPercent: (serverCpu / elapsed) * 100,
    loadGeneratorCpuPercent: (ownSeconds / elapsed) * 100,
    otherCpuPercent: Math.max(0, ((machineBusy - serverCpu - ownSeconds) / elapsed) * 100),
    totalRequests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    throughputMBps: result.throughput.average / 1_000_000,
  };
}

type Options = {
  duration: number;
  connections: number;
  warmup: number;
  path: string;
  json?: string;
  checkout?: string;
};

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "50" },
      warmup: { type: "string", default: "2" },
      path: { type: "string", default: "/" },
      json: { type: "string" },
      checkout: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(
      "Usage: npm run bench -- [--duration S (10)] [--connections N (50)] [--warmup S (2)] [--path /x (/)] [--checkout DIR] [--json FILE]",
    );
    process.exit(0);
  }
  const number = (name: string, raw: string, min: number, max: number) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`--${name} must be an integer from ${min} to ${max}, got ${raw}`);
    }
    return value;
  };
  const path = values.path.startsWith("/") ? values.path : `/${values.path}`;
  if (/^\/\//.test(path) || /\s/.test(path))
    throw new Error(`--path must be a path on this site, got ${path}`);
  return {
    duration: number("duration", values.duration, 1, 300),
    connections: number("connections", values.connections, 1, 1000),
    warmup: number("warmup", values.warmup, 0, 60),
    path,
    json: values.json,
    checkout: values.checkout,
  };
}

/** Server CPU time per request in microseconds: its cost independent of the load generator's speed. */
const cpuPerRequest = (r: Measurement) => (r.serverCpuPercent * 10_000) / r.requestsPerSecond;

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

function table(results: Measurement[]): string {
  const lines = [
    "| Target | Requests/s (mean) | Latency p50 ms | Latency p99 ms | Errors / non-2xx | Throughput MB/s | Response | CPU server / autocannon / other | Server CPU µs/request |",
    "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
  ];
  for (const r of results) {
    lines.push(
      `| ${r.target} | ${Math.round(r.requestsPerSecond).toLocaleString("en-GB")} | ${fixed(r.p50, 1)} | ` +
        `${fixed(r.p99, 1)} | ${r.errors + r.timeouts} / ${r.non2xx} | ${fixed(r.throughputMBps, 1)} | ` +
        `${r.contentEncoding}, ${(r.bodyBytes / 1024).toFixed(1)} KB | ` +
        `${fixed(r.serverCpuPercent, 0)} / ${fixed(r.loadGeneratorCpuPercent, 0)} / ${fixed(r.otherCpuPercent, 0)} % | ${fixed(cpuPerRequest(r), 0)} |`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<number> {
  const options = parseOptions();
  if (options.checkout) checkout = options.checkout;
  ensureBuild(checkout);
  const targetsCount = (NGINX ? 4 : 3) + 1;
  // Watchdog: start-up, warm-up and measurement of each target, plus a generous margin.
  const budgetMs = (targetsCount * (options.warmup + options.duration + 30) + 30) * 1000;
  const watchdog = setTimeout(() => {
    console.error(`bench: still running after ${budgetMs / 1000} s, stopping`);
    void cleanup().finally(() => process.exit(1));
  }, budgetMs);
  watchdog.unref();

  const cores = cpus().length;
  console.log(
    `Machine: ${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; ` +
      "autocannon runs in this process, on the same machine as the servers.",
  );
  console.log(
    `Load: GET ${options.path}, ${options.connections} connections, ${options.duration} s after a ` +
      `${options.warmup} s warm-up, Accept-Encoding: ${ACCEPT_ENCODING}, a desktop Chrome User-Agent, ` +
      "X-Forwarded-For different on every request (TRUST_PROXY=1)\n",
  );

  if (!NGINX) {
    console.log(
      "nginx is not installed (apt-get install nginx-light): measuring server.ts alone, no reference.\n",
    );
  }
  const results: Measurement[] = [];
  let storedViews = 0;
  for (const analytics of ["off", "on"] as const) {
    const app = await startAppServer(analytics);
    results.push(await measure(app, options.path, options));
    // Stopping flushes the views still buffered (clean shutdown), then the database is read.
    await stopAppServer();
    if (analytics === "on" && app.databaseUrl) storedViews = await storedPageViews(app.databaseUrl);
  }

  // A page the content studio publishes (issue 24) is no file of the build: the floor and nginx
  // serve a prerendered page instead, and server.ts serves that one too, in the same run, so the
  // two pages' costs compare.
  const prerendered = isBuildFile(options.path);
  const referencePath = prerendered ? options.path : PRERENDERED_REFERENCE;
  if (!prerendered) {
    const app = await startAppServer("off");
    const reference = await measure(app, referencePath, options);
    results.push({ ...reference, target: `server.ts, analytics off, prerendered ${referencePath}` });
    await stopAppServer();
  }
  {
    const floor = await startNodeFloor();
    results.push(await measure(floor, referencePath, options));
    for (const child of [...children]) await stopChild(child);
  }
  if (NGINX) {
    const nginx = await startNginx(NGINX);
    results.push(await measure(nginx, referencePath, options));
    for (const child of [...children]) await stopChild(child);
  }
  clearTimeout(watchdog);

  console.log(table(results));
  console.log("");
  if (!prerendered) {
    const studio = results[0];
    const page = results.find((r) => r.target.includes("prerendered"));
    if (studio && page)
      console.log(
        `${options.path} is served from the published pages (rendered once, kept in memory); the floor and nginx rows measure ${referencePath}.\n` +
          `- server CPU per request, ${options.path} / prerendered ${referencePath}: ${fixed((cpuPerRequest(studio) / cpuPerRequest(page)) * 100, 0)} % ` +
          `(${(studio.bodyBytes / 1024).toFixed(1)} KB against ${(page.bodyBytes / 1024).toFixed(1)} KB on the wire)\n`,
      );
  }
  for (const r of results)
    console.log(`- ${r.target}: ${r.note}; ${r.totalRequests.toLocaleString("en-GB")} requests`);

  const verdict = (ok: boolean) => (ok ? "yes" : "NO");
  const offResult = results[0];
  const appResult = results[1];
  const reference = results.find((r) => r.target === "nginx");
  if (!appResult || !offResult) throw new Error("no measurement");
  const analyticsRps = appResult.requestsPerSecond / offResult.requestsPerSecond;
  const analyticsCpu = cpuPerRequest(offResult) / cpuPerRequest(appResult);
  console.log(
    `\nAnalytics (issue 12): ${storedViews.toLocaleString("en-GB")} page views stored for ` +
      `${appResult.totalRequests.toLocaleString("en-GB")} measured requests (plus the warm-up's) with counting on`,
  );
  console.log(
    `- counting on / off, requests/s: ${fixed(analyticsRps * 100, 0)} % (target >= ${TARGET_ANALYTICS_SHARE * 100} %: ${verdict(analyticsRps >= TARGET_ANALYTICS_SHARE)})`,
  );
  console.log(
    `- counting on / off, CPU efficiency per request: ${fixed(analyticsCpu * 100, 0)} % ` +
      `(${fixed(cpuPerRequest(appResult), 0)} vs ${fixed(cpuPerRequest(offResult), 0)} µs; target >= ${TARGET_ANALYTICS_SHARE * 100} %: ${verdict(analyticsCpu >= TARGET_ANALYTICS_SHARE)})`,
  );
  const share = reference ? appResult.requestsPerSecond / reference.requestsPerSecond : Number.NaN;
  if (reference) {
    console.log(`\nRatio server.ts / nginx (requests/s): ${fixed(share, 2)} (${fixed(share * 100, 0)} %)`);
    const cpuShare = cpuPerRequest(reference) / cpuPerRequest(appResult);
    console.log(
      `Ratio by server CPU per request (capacity per core, independent of autocannon): ${fixed(cpuShare, 2)} ` +
        `(${fixed(cpuShare * 100, 0)} %)`,
    );
    const ofNginx = (r: Measurement) => cpuPerRequest(r) / cpuPerRequest(reference);
    const floor = results.find((r) => r.target === "node:http floor");
    console.log(
      `Server CPU per request against nginx's (issue 22: at most ${TARGET_CPU_OF_NGINX}x with counting on): ` +
        `${fixed(ofNginx(appResult), 2)}x with counting on, ${fixed(ofNginx(offResult), 2)}x off` +
        (floor ? `; Node's own floor (node:http alone) ${fixed(ofNginx(floor), 2)}x` : ""),
    );
    if (floor) {
      console.log(
        `server.ts over the node:http floor: ${fixed(cpuPerRequest(appResult) / cpuPerRequest(floor), 2)}x with counting on, ` +
          `${fixed(cpuPerRequest(offResult) / cpuPerRequest(floor), 2)}x off`,
      );
    }
    if (appResult.loadGeneratorCpuPercent > 90 || reference.loadGeneratorCpuPercent > 90) {
      console.log(
        "Note: autocannon used a whole core, so requests/s is the load generator's ceiling, not the servers'.",
      );
    }
  }
  console.log("\nTargets (server.ts, analytics on):");
  console.log(
    `- >= ${TARGET_RPS.toLocaleString("en-GB")} requests/s: ${verdict(appResult.requestsPerSecond >= TARGET_RPS)} ` +
      `(${Math.round(appResult.requestsPerSecond).toLocaleString("en-GB")})`,
  );
  console.log(
    reference
      ? `- >= ${TARGET_SHARE_OF_NGINX * 100} % of nginx: ${verdict(share >= TARGET_SHARE_OF_NGINX)} (${fixed(share * 100, 0)} %)`
      : `- >= ${TARGET_SHARE_OF_NGINX * 100} % of nginx: not measured (no nginx)`,
  );
  console.log(
    `- p99 < ${TARGET_P99_MS} ms: ${verdict(appResult.p99 < TARGET_P99_MS)} (${fixed(appResult.p99, 1)} ms)`,
  );
  const busy = results.filter((r) => r.otherCpuPercent > 15);
  if (busy.length > 0) {
    console.log(
      `\nWarning: other processes used ${busy.map((r) => `${fixed(r.otherCpuPercent, 0)} %`).join(" / ")} of a core ` +
        `during ${busy.map((r) => r.target).join(" / ")}: the machine was not quiet, run again.`,
    );
  }
  const failures = results.filter((r) => r.errors + r.timeouts + r.non2xx > 0);
  if (failures.length > 0) {
    console.log(
      `- errors: ${failures.map((r) => `${r.target} ${r.errors + r.timeouts}/${r.non2xx}`).join(", ")}`,
    );
  }

  if (options.json) {
    const report = {
      measuredAt: new Date().toISOString(),
      machine: { cores, cpu: cpus()[0]?.model, node: process.version },
      options,
      results,
      ratio: share,
      analytics: { storedViews, requestsPerSecondRatio: analyticsRps, cpuEfficiencyRatio: analyticsCpu },
      cpuPerRequestRatio: reference ? cpuPerRequest(reference) / cpuPerRequest(appResult) : null,
    };
    writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nSaved ${options.json}`);
  }
  return 0;
}

await runMain("bench", main, cleanup);
