import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/database.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import {
  checkPostgres,
  createPostgresSchema,
  runOnTestPostgres,
  TEST_POSTGRES_URL,
} from "../support/databases.ts";
import { createAccount, signIn } from "./support/accounts.ts";

// Issue 9 points 7 and 9: another process (an operator command, a backup, the sqlite3 shell) holding
// SQLite's write lock must not freeze the server. Pages and signed-in reads keep answering at normal
// speed; a write waits without blocking the event loop, then is stored or answered 503, never hangs.

// Longer than two bounds: a lead whose attribution must first write the day's salt waits the bound
// for that, then again for its own transaction (each wait is bounded, not the request; see
// docs/operations.md). At 3 s the second wait could end just as the lock did, and store the lead.
const LOCK_MS = 4000;
const WAIT_MS = 1500;

/** Starts a process that takes the write lock (BEGIN IMMEDIATE) and holds it for `ms`. */
async function holdWriteLock(
  file: string,
  ms: number,
): Promise<{ child: ChildProcess; released: Promise<void> }> {
  const script = `
    const { DatabaseSync } = require("node:sqlite");
    const db = new DatabaseSync(${JSON.stringify(file)});
    db.exec("BEGIN IMMEDIATE");
    console.log("locked");
    setTimeout(() => { db.exec("COMMIT"); db.close(); console.log("released"); }, ${ms});
  `;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const released = new Promise<void>((resolve) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("released")) resolve();
    });
    child.on("exit", () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the lock holder did not start")), 10_000);
    child.stdout?.on("data", () => {
      if (output.includes("locked")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, released };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function timed(request: () => Promise<Response>): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

const lead = (email: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ fullName: "Lock Test", email, company: "Lock Test Ltd", phone: "0123 456 789" }),
});

describe("another process holds the SQLite write lock", () => {
  let dir: string;
  let databaseUrl: string;
  let server: RunningServer;
  let cookie: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lock-"));
    databaseUrl = join(dir, "app.sqlite");
    server = await startServer({
      DATABASE_URL: databaseUrl,
      DATABASE_WAIT_MS: String(WAIT_MS),
      LEAD_RATE_LIMIT: "0",
      LEAD_MIN_FILL_SECONDS: "0",
      LOG_LEVEL: "error",
    });
    await createAccount(databaseUrl, {
      username: "lockadmin",
      password: "Lock-Test-Password-1",
      isAdmin: true,
    });
    cookie = await signIn(server.url, "lockadmin", "Lock-Test-Password-1");
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps pages and signed-in reads fast, and stores a lead after the lock or answers 503 within the bound", async () => {
    // Warm up the routes so the measurement sees steady-state serving.
    for (let i = 0; i < 5; i++) {
      await timed(() => fetch(`${server.url}/`));
      await timed(() => fetch(`${server.url}/api/user`, { headers: { Cookie: cookie } }));
    }
    // One lock cycle: one request at a time to a page and a signed-in read, and a lead sent meanwhile.
    const measureDuringLock = async () => {
      const { released } = await holdWriteLock(databaseUrl, LOCK_MS);
      const lockStarted = performance.now();
      // A lead sent while the lock is held: it waits (asynchronously) for the lock.
      const leadAnswer = timed(() => fetch(`${server.url}/api/demo-request`, lead("locked@example.com")));
      const pages: number[] = [];
      const reads: number[] = [];
      while (performance.now() - lockStarted < LOCK_MS - 500) {
        const page = await timed(() => fetch(`${server.url}/`));
        expect(page.status).toBe(200);
        pages.push(page.ms);
        const user = await timed(() => fetch(`${server.url}/api/user`, { headers: { Cookie: cookie } }));
        expect(user.status).toBe(200);
        reads.push(user.ms);
      }
      const answer = await leadAnswer;
      await released;
      return { pages, reads, answer, p99: Math.max(percentile(pages, 99), percentile(reads, 99)) };
    };
    // A blocked event loop stalls every request for the lock's whole wait (WAIT_MS, 1.5 s here), so
    // the bound is a third of it: far above what the browser tests sharing this 2-core machine add
    // to a request for a moment (CI saw a p99 of 88 and 122 ms against an earlier 50 ms bound),
    // far below a stall. A second cycle absorbs one unlucky moment; a blocked loop fails both.
    const stallMs = WAIT_MS / 3;
    let run = await measureDuringLock();
    if (run.p99 >= stallMs) run = await measureDuringLock();
    const { pages, reads, answer } = run;

    expect(pages.length).toBeGreaterThan(20);
    expect(percentile(pages, 99)).toBeLessThan(stallMs);
    expect(percentile(reads, 99)).toBeLessThan(stallMs);
    // Never a hang: answered 503 once the bound passed (the lock outlasts it here)...
    expect(answer.status).toBe(503);
    expect(answer.ms).toBeLessThan(WAIT_MS + 2000);

    // ...and once the lock is gone, the same submission is stored.
    const after = await fetch(`${server.url}/api/demo-request`, lead("after-lock@example.com"));
    expect(after.status).toBe(201);
    const database = openDatabase(databaseUrl);
    try {
      const emails = (await database.db.selectFrom("leads").select("email").execute()).map(
        (row) => row.email,
      );
      expect(emails).toEqual(["after-lock@example.com"]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it("stores a lead that arrives during a lock shorter than the bound", async () => {
    const { released } = await holdWriteLock(databaseUrl, 500);
    const answer = await timed(() => fetch(`${server.url}/api/demo-request`, lead("short-lock@example.com")));
    await released;
    expect(answer.status).toBe(201);
  }, 30_000);

  it("answers a staff page and the staff API 503, with a clear message, while writes cannot proceed", async () => {
    const { released } = await holdWriteLock(databaseUrl, WAIT_MS + 1500);
    // A status change is a write: it waits for the bound, then 503 in the API's JSON shape.
    const patch = await fetch(`${server.url}/api/admin/leads/1`, {
      method: "PATCH",
      headers: { Cookie: cookie, "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ status: "contacted" }),
    });
    expect(patch.status).toBe(503);
    expect(patch.headers.get("retry-after")).toBe("5");
    expect(await patch.json()).toEqual({
      message: "The service is temporarily unavailable. Please try again in a moment.",
    });
    await released;
  }, 30_000);
});

/**
 * A TCP proxy in front of PostgreSQL that can freeze (stop forwarding, keep every socket open: a frozen
 * host or a network black hole), go down (refuse and cut connections: a stopped server), or be slow
 * then freeze: every open connection is cut, and each new one gets its handshake answered only after
 * a delay, then nothing more (a host going under: connecting is slow, then it stops answering).
 */
async function startPostgresProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let frozen = false;
  let down = false;
  let slowStartMs: number | null = null;
  const held: Array<() => void> = [];
  const server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {});
    }
    // Slow then frozen: what the server says within the delay (the handshake) arrives at its end;
    // anything after it is held.
    const answerAt: number | null = slowStartMs === null ? null : Date.now() + slowStartMs;
    const forward = (from: Socket, to: Socket) =>
      from.on("data", (chunk) => {
        if (frozen) held.push(() => to.write(chunk));
        else to.write(chunk);
      });
    forward(client, upstream);
    upstream.on("data", (chunk) => {
      if (answerAt === null) {
        if (frozen) held.push(() => client.write(chunk));
        else client.write(chunk);
      } else if (Date.now() < answerAt) setTimeout(() => client.write(chunk), answerAt - Date.now());
      else held.push(() => client.write(chunk));
    });

    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    goDown: () => {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    slowThenFrozen: (ms: number) => {
      slowStartMs = ms;
      for (const socket of sockets) socket.destroy();
    },
    recover: () => {
      slowStartMs = null;
      held.length = 0;
      for (const socket of sockets) socket.destroy();
    },
    comeBack: () => {
      down = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("PostgreSQL stops answering or goes away", async () => {
  const available = await checkPostgres();
  let proxy: Awaited<ReturnType<typeof startPostgresProxy>>;
  let server: RunningServer;
  let cookie: string;
  let dropSchema: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (!available) return;
    const schema = await createPostgresSchema();
    dropSchema = schema.drop;
    const direct = new URL(schema.url);
    proxy = await startPostgresProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(schema.url);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    server = await startServer({
      DATABASE_URL: viaProxy.href,
      DATABASE_WAIT_MS: String(WAIT_MS),
      DATABASE_POOL_SIZE: "4",
      LOG_LEVEL: "error",
    });
    await createAccount(schema.url, { username: "pgadmin", password: "Pg-Fault-Password-1", isAdmin: true });
    cookie = await signIn(server.url, "pgadmin", "Pg-Fault-Password-1");
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await dropSchema?.();
  });

  const staffList = () =>
    timed(() => fetch(`${server.url}/api/admin/leads`, { headers: { Cookie: cookie } }));

  it.skipIf(!available)(
    "answers 503 within the bound during a freeze, and recovers by itself after it",
    async () => {
      expect((await staffList()).status).toBe(200);
      proxy.freeze();
      try {
        const [list, page] = await Promise.all([staffList(), timed(() => fetch(`${server.url}/`))]);
        // Bounded by DATABASE_WAIT_MS (plus a generous margin for a busy machine), never the length
        // of the freeze.
        expect(list.status).toBe(503);
        expect(list.ms).toBeLessThan(WAIT_MS + 1500);
        // Prerendered public pages need no database.
        expect(page.status).toBe(200);
        // A load balancer takes the instance out within the readiness bound (1 s), never waiting
        // for the freeze; the process itself is alive.
        const ready = await timed(() => fetch(`${server.url}/readyz`));
        expect(ready.status).toBe(503);
        expect(ready.ms).toBeLessThan(1000 + 3000);
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      } finally {
        proxy.thaw();
      }
      let recovered = 0;
      for (let i = 0; i < 40 && recovered === 0; i++) {
        if ((await staffList()).status === 200) recovered++;
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(recovered).toBe(1);
    },
    60_000,
  );

  it.skipIf(!available)(
    "counts the wait for a connection in the bound: a slow connection, then a frozen statement, 503 within DATABASE_WAIT_MS (issue 22)",
    async () => {
      expect((await staffList()).status).toBe(200);
      // Each new connection takes 1 s of the 1.5 s bound; pg alone then gave the statement its own
      // 1.5 s + 1 s, answering after 3.5 s.
      proxy.slowThenFrozen(1000);
      try {
        // The pool notices its idle connections were cut.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const list = await staffList();
        expect(list.status).toBe(503);
        expect(list.ms).toBeLessThan(WAIT_MS + 1500);
      } finally {
        proxy.recover();
      }
      let recovered = false;
      for (let i = 0; i < 40 && !recovered; i++) {
        recovered = (await staffList()).status === 200;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(recovered).toBe(true);
    },
    60_000,
  );

  it.skipIf(!available)(
    "answers staff pages, the staff API and sign-in 503 while the database is down",
    async () => {
      proxy.goDown();
      try {
        const list = await fetch(`${server.url}/api/admin/leads`, { headers: { Cookie: cookie } });
        expect(list.status).toBe(503);
        expect(await list.json()).toEqual({
          message: "The service is temporarily unavailable. Please try again in a moment.",
        });
        const dashboard = await fetch(`${server.url}/admin/dashboard`, { headers: { Cookie: cookie } });
        expect(dashboard.status).toBe(503);
        expect(await dashboard.text()).toContain("temporarily unavailable");
        const login = await fetch(`${server.url}/api/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: server.url },
          body: JSON.stringify({ username: "pgadmin", password: "Pg-Fault-Password-1" }),
        });
        expect(login.status).toBe(503);
        const leadAnswer = await fetch(`${server.url}/api/demo-request`, lead("down@example.com"));
        expect(leadAnswer.status).toBe(503);
        expect((await fetch(`${server.url}/`)).status).toBe(200);
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(await ready.text()).toMatch(
          /^not ready: the database (is unreachable|did not answer within 1000 ms)\n$/,
        );
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      } finally {
        proxy.comeBack();
      }
      let recovered = false;
      for (let i = 0; i < 40 && !recovered; i++) {
        recovered = (await staffList()).status === 200;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(recovered).toBe(true);
    },
    60_000,
  );
});

describe("PostgreSQL refuses new connections (ALTER DATABASE … ALLOW_CONNECTIONS false)", async () => {
  const available = await checkPostgres();
  const name = `faults_${process.pid}_${Date.now()}`;
  let server: RunningServer;
  let cookie: string;
  const admin = runOnTestPostgres;

  beforeAll(async () => {
    if (!available) return;
    await admin(`create database ${name}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    server = await startServer({
      DATABASE_URL: url.href,
      DATABASE_WAIT_MS: String(WAIT_MS),
      LOG_LEVEL: "error",
    });
    await createAccount(url.href, {
      username: "refusedadmin",
      password: "Refused-Password-1",
      isAdmin: true,
    });
    cookie = await signIn(server.url, "refusedadmin", "Refused-Password-1");
  }, 60_000);

  afterAll(async () => {
    if (!available) return;
    await server?.stop();
    await admin(`alter database ${name} allow_connections true`).catch(() => {});
    await admin(`drop database if exists ${name} with (force)`);
  });

  it.skipIf(!available)(
    "answers 503 (never 500) while the database refuses connections, and recovers by itself",
    async () => {
      await admin(`alter database ${name} allow_connections false`);
      await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
      try {
        const list = await fetch(`${server.url}/api/admin/leads`, { headers: { Cookie: cookie } });
        expect(list.status).toBe(503);
        const dashboard = await fetch(`${server.url}/admin/dashboard`, { headers: { Cookie: cookie } });
        expect(dashboard.status).toBe(503);
        const login = await fetch(`${server.url}/api/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: server.url },
          body: JSON.stringify({ username: "refusedadmin", password: "Refused-Password-1" }),
        });
        expect(login.status).toBe(503);
        expect((await fetch(`${server.url}/api/demo-request`, lead("refused@example.com"))).status).toBe(503);
        expect((await fetch(`${server.url}/`)).status).toBe(200);
      } finally {
        await admin(`alter database ${name} allow_connections true`);
      }
      let recovered = false;
      for (let i = 0; i < 40 && !recovered; i++) {
        recovered =
          (await fetch(`${server.url}/api/admin/leads`, { headers: { Cookie: cookie } })).status === 200;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(recovered).toBe(true);
    },
    60_000,
  );
});
