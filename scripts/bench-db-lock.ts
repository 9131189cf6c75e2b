// `npm run bench:lock -- [--seconds 10]`
// Issue 9 point 9: another process holds SQLite's write lock (an operator command, a backup, the
// sqlite3 shell in a transaction). Measures, during the lock, a prerendered page (GET /), a signed-in
// read (GET /api/user) and a lead submission, one request after another so each figure is one
// request's own wait. Prints p50 / p99 / max and what the lead was answered, and how long it took.
// Only 127.0.0.1, a fresh SQLite database.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createAccount, signIn } from "../tests/e2e/support/accounts.ts";
import { runMain } from "./lib/run-main.ts";
import { type RunningServer, startServer } from "./lib/server-process.ts";
import { ensureBuild } from "./page-weight.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "10" } } });
const lockMs = Number(values.seconds) * 1000;

function holdLock(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const script = `const { DatabaseSync } = require("node:sqlite"); const db = new DatabaseSync(${JSON.stringify(file)});
    db.exec("BEGIN IMMEDIATE"); console.log("locked"); setTimeout(() => { db.exec("COMMIT"); console.log("released"); }, ${ms});`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const released = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return new Promise((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("locked")) resolve({ released });
    });
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

async function time(request: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  return performance.now() - started;
}

const dir = mkdtempSync(join(tmpdir(), "bench-lock-"));
let server: RunningServer | undefined;

await runMain(
  "bench:lock",
  async () => {
    ensureBuild();
    const file = join(dir, "app.sqlite");
    server = await startServer({ DATABASE_URL: file, LOG_LEVEL: "error", LEAD_MIN_FILL_SECONDS: "0" });
    const url = server.url;
    await createAccount(file, { username: "bench-admin", password: "bench admin passphrase", isAdmin: true });
    const cookie = await signIn(url, "bench-admin", "bench admin passphrase");
    for (let i = 0; i < 20; i++) {
      await time(() => fetch(`${url}/`));
      await time(() => fetch(`${url}/api/user`, { headers: { Cookie: cookie } }));
    }
    const { released } = await holdLock(file, lockMs);
    const started = performance.now();
    const lead = (async () => {
      const before = performance.now();
      const response = await fetch(`${url}/api/demo-request`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          fullName: "Lock Bench",
          email: "lock@example.com",
          company: "Bench Ltd",
          phone: "0123 456 789",
        }),
      });
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - before };
    })();
    const page: number[] = [];
    const read: number[] = [];
    while (performance.now() - started < lockMs - 200) {
      page.push(await time(() => fetch(`${url}/`)));
      read.push(await time(() => fetch(`${url}/api/user`, { headers: { Cookie: cookie } })));
    }
    const leadAnswer = await lead;
    await released;
    const line = (name: string, v: number[]) =>
      `${name.padEnd(26)} ${String(v.length).padStart(6)} requests   p50 ${percentile(v, 50).toFixed(1)} ms   p99 ${percentile(v, 99).toFixed(1)} ms   max ${Math.max(...v).toFixed(1)} ms`;
    console.log(`Another process held SQLite's write lock for ${lockMs / 1000} s. During it:`);
    console.log(line("GET / (prerendered)", page));
    console.log(line("GET /api/user (signed in)", read));
    console.log(
      `POST /api/demo-request     answered ${leadAnswer.status} after ${(leadAnswer.ms / 1000).toFixed(2)} s`,
    );
    return 0;
  },
  async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  },
);
