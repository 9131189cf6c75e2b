// `npm run bench:imports -- [--postgres] [--skip-memory] [--noise]`
// Issue 32, points 6 and 7, on the production server (127.0.0.1):
// - GET / worst and p95 latency, and the server's longest event-loop stall, during three concurrent
//   10,000-row CSV commits (POST /api/admin/leads/import, commit=true);
// - the server's peak RSS (VmHWM) during 20 concurrent image uploads of 9.5-9.7 MB (near the 10 MB
//   limit; see largeUpload) and, on a fresh server, during 6 concurrent imports of 4.5 MB CSVs. A client told
//   503 "busy" tries again after a moment, so every upload and import is eventually done.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { makeImage } from "../app/features/content/media/testing/image-fixtures.ts";
import { createAccount, signIn } from "../tests/e2e/support/accounts.ts";
import { checkPostgres, createPostgresSchema } from "../tests/support/databases.ts";
import {
  commitCsv,
  eventLoopMaxLagMs,
  leadsCsv,
  peakRss,
  percentile,
  sampleHomePage,
  untilAccepted,
  uploadImage,
} from "./lib/import-load.ts";
import { runMain } from "./lib/run-main.ts";
import { type RunningServer, startServer } from "./lib/server-process.ts";
import { ensureBuild } from "./page-weight.ts";

const { values } = parseArgs({
  options: {
    postgres: { type: "boolean", default: false },
    "skip-memory": { type: "boolean", default: false },
    noise: { type: "boolean", default: false },
  },
});

const PASSWORD = "Bench imports passphrase 32";
const servers: RunningServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
const MB = 1024 * 1024;

async function freshServer(): Promise<{ server: RunningServer; cookie: string }> {
  let databaseUrl: string;
  if (values.postgres) {
    if (!(await checkPostgres())) throw new Error("PostgreSQL is not reachable (TEST_DATABASE_URL).");
    const schema = await createPostgresSchema();
    cleanups.push(schema.drop);
    databaseUrl = schema.url;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "bench-imports-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    databaseUrl = join(dir, "bench.sqlite");
  }
  const server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error" });
  servers.push(server);
  await createAccount(databaseUrl, { username: "bench-admin", password: PASSWORD, isAdmin: true });
  return { server, cookie: await signIn(server.url, "bench-admin", PASSWORD) };
}

async function stopServer(server: RunningServer) {
  await server.stop();
  servers.splice(servers.indexOf(server), 1);
}

/**
 * An upload just under the 10 MB limit: by default a small real PNG followed by padding (libvips
 * ignores what follows the image, as for a polyglot), so the body is what costs; with --noise,
 * 3.2 megapixels of random colour, the costliest content for every encoder (20-30 s each on a
 * loaded machine).
 */
async function largeUpload(): Promise<Uint8Array> {
  if (!values.noise) {
    const png = await makeImage("png", { width: 800, height: 600 });
    const padded = new Uint8Array(Math.round(9.5 * MB));
    padded.set(png);
    for (let i = png.length; i < padded.length; i++) padded[i] = (i * 7919) & 0xff;
    return padded;
  }
  const width = 2000;
  const height = 1600;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 4) pixels.writeUInt32LE((Math.random() * 0x100000000) >>> 0, i);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function main(): Promise<number> {
  ensureBuild();
  const database = values.postgres ? "PostgreSQL" : "SQLite";
  console.log(`bench:imports on ${database}\n`);

  {
    const { server, cookie } = await freshServer();
    await eventLoopMaxLagMs(server.url);
    // Made before the clock starts: this process's own work must not count as the server's.
    const csvs = ["a", "b", "c"].map((tag) => leadsCsv(tag));
    const sampler = sampleHomePage(server.url);
    const started = performance.now();
    const results = await Promise.all(
      csvs.map((csv) => untilAccepted(async () => (await commitCsv(server.url, cookie, csv)).status)),
    );
    const seconds = (performance.now() - started) / 1000;
    const { latencies, failures } = await sampler.stop();
    const lag = await eventLoopMaxLagMs(server.url);
    console.log(
      `three concurrent 10,000-row commits (0.7 MB files): ${results.join(", ")} in ${seconds.toFixed(1)} s; GET / ` +
        `${latencies.length} requests, worst ${Math.max(...latencies).toFixed(0)} ms, p95 ` +
        `${percentile(latencies, 95).toFixed(0)} ms, median ${percentile(latencies, 50).toFixed(0)} ms, ` +
        `${failures.length} failed; longest event-loop stall ${lag.toFixed(0)} ms`,
    );
    await stopServer(server);
  }
  if (values["skip-memory"]) return 0;

  {
    const image = await largeUpload();
    const { server, cookie } = await freshServer();
    const before = peakRss(server.pid ?? 0);
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => untilAccepted(() => uploadImage(server.url, cookie, image))),
    );
    const seconds = (performance.now() - started) / 1000;
    const created = statuses.filter((status) => status === 201).length;
    console.log(
      `20 concurrent uploads of ${(image.length / MB).toFixed(1)} MB${values.noise ? " (noise)" : ""}: ${created} stored in ${seconds.toFixed(0)} s (${statuses.join(" ")}); server peak RSS ` +
        `${(peakRss(server.pid ?? 0) / MB).toFixed(0)} MB (${(before / MB).toFixed(0)} MB before)`,
    );
    await stopServer(server);
  }

  {
    const { server, cookie } = await freshServer();
    const before = peakRss(server.pid ?? 0);
    // 10,000 rows of about 500 bytes: a file near the 5 MB limit.
    const csvs = ["m1", "m2", "m3", "m4", "m5", "m6"].map((tag) => leadsCsv(tag, 10_000, 400));
    const statuses = await Promise.all(
      csvs.map((csv) => untilAccepted(async () => (await commitCsv(server.url, cookie, csv)).status)),
    );
    console.log(
      `6 concurrent imports of ${(Buffer.byteLength(csvs[0] ?? "") / MB).toFixed(1)} MB: ${statuses.join(", ")}; ` +
        `server peak RSS ${(peakRss(server.pid ?? 0) / MB).toFixed(0)} MB (${(before / MB).toFixed(0)} MB before)`,
    );
    await stopServer(server);
  }
  return 0;
}

await runMain("bench:imports", main, async () => {
  for (const server of servers) await server.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
});
