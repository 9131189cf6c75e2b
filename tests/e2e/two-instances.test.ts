import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import http2 from "node:http2";
import { type AddressInfo, createServer, connect as netConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { startTestSmtp, type TestSmtp } from "../../app/lib/testing/test-smtp.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { prepareSharedDatabase, startInstances } from "./support/instances.ts";

// The deployment of docs/operations.md ("Deploying two instances behind nginx"), on loopback: two
// production instances on one fresh PostgreSQL schema, behind Debian's nginx running the shipped
// deploy/nginx files (TLS with a throwaway certificate, HTTP/2, the upstream of two instances),
// with only ports and file paths changed. Requests alternate between the instances (nginx's round
// robin; a test-only header names the instance that answered), and what must be shared holds.

const root = join(import.meta.dirname, "..", "..");
const deployDir = join(root, "deploy", "nginx");
// NGINX_PATH overrides where nginx is looked for, as in scripts/bench.ts.
const NGINX = (
  process.env.NGINX_PATH !== undefined ? [process.env.NGINX_PATH] : ["/usr/sbin/nginx", "/usr/bin/nginx"]
).find((path) => path !== "" && existsSync(path));
const OPENSSL = spawnSync("openssl", ["version"]).status === 0;
const SITE = "www.example.co.uk";
const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const ADMIN = { username: "ops-admin", password: "two instances passphrase" };
const LEAD_RATE_LIMIT = 3;

const postgres = await checkPostgres();
const missing = [
  !NGINX && "nginx (apt-get install nginx-light)",
  !OPENSSL && "openssl",
  !postgres && "PostgreSQL",
].filter((what): what is string => Boolean(what));
if (missing.length > 0) {
  const message = `two-instances.test.ts needs ${missing.join(", ")}`;
  if (process.env.REQUIRE_POSTGRES === "1") throw new Error(`${message} (REQUIRE_POSTGRES=1)`);
  console.warn(`\n*** ${message}: the two-instance deployment test is SKIPPED ***\n`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Replaces what a pattern matches, failing when it matches nothing (the file changed under the test). */
function rewrite(text: string, file: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`${file} no longer contains ${pattern}: update this test`);
  pattern.lastIndex = 0;
  return text.replace(pattern, replacement);
}

/**
 * Copies deploy/nginx into `dir` as it is installed under /etc/nginx, with the instances' ports,
 * loopback listeners on free ports (no IPv6: the machine may not have it), the throwaway
 * certificate and logs in `dir`, plus one test-only response header naming the instance.
 */
function writeNginxConfig(dir: string, ports: { tls: number; plain: number; instances: number[] }): string {
  const site = "deploy/nginx/clausebridge.conf";
  let text = readFileSync(join(deployDir, "clausebridge.conf"), "utf8");
  text = rewrite(text, site, /server 127\.0\.0\.1:3001 /g, `server 127.0.0.1:${ports.instances[0]} `);
  text = rewrite(text, site, /server 127\.0\.0\.1:3002 /g, `server 127.0.0.1:${ports.instances[1]} `);
  text = rewrite(text, site, /^\s*listen \[::\]:.*\n/gm, "");
  text = rewrite(text, site, /listen 443 /g, `listen 127.0.0.1:${ports.tls} `);
  text = rewrite(text, site, /listen 80([ ;])/g, `listen 127.0.0.1:${ports.plain}$1`);
  text = rewrite(text, site, /\/var\/log\/nginx\//g, `${dir}/`);
  text = rewrite(
    text,
    site,
    /include clausebridge\/app\.conf;/,
    "add_header X-Test-Upstream $upstream_addr always;\n    include clausebridge/app.conf;",
  );
  writeFileSync(join(dir, "clausebridge.conf"), text);
  mkdirSync(join(dir, "clausebridge"));
  writeFileSync(
    join(dir, "clausebridge", "app.conf"),
    readFileSync(join(deployDir, "clausebridge", "app.conf"), "utf8"),
  );
  const tls = rewrite(
    readFileSync(join(deployDir, "clausebridge", "tls.conf"), "utf8"),
    "deploy/nginx/clausebridge/tls.conf",
    /\/etc\/letsencrypt\/live\/www\.example\.co\.uk\//g,
    `${dir}/`,
  );
  writeFileSync(join(dir, "clausebridge", "tls.conf"), tls);
  const main = join(dir, "nginx.conf");
  // One process (no master): afterAll has exactly one child to stop. Relative includes resolve
  // against this file's folder, as they do against /etc/nginx.
  writeFileSync(
    main,
    `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include clausebridge.conf;
}
`,
  );
  return main;
}

/** A throwaway certificate for both names, made by openssl. */
function makeCertificate(dir: string): Buffer {
  const made = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${SITE}`,
      "-addext",
      `subjectAltName=DNS:${SITE},DNS:example.co.uk`,
      "-keyout",
      join(dir, "privkey.pem"),
      "-out",
      join(dir, "fullchain.pem"),
    ],
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return readFileSync(join(dir, "fullchain.pem"));
}

type Answer = { status: number; headers: http2.IncomingHttpHeaders; body: string; instance: string };

/**
 * A browser at one client address (127.0.0.x: all of 127/8 is loopback), speaking HTTP/2 over
 * TLS to nginx, trusting the throwaway certificate.
 */
class Client {
  private readonly session: http2.ClientHttp2Session;
  cookie = "";
  constructor(address: string, port: number, ca: Buffer) {
    this.session = http2.connect(`https://${SITE}:${port}`, {
      createConnection: () =>
        tlsConnect({
          socket: netConnect({ host: "127.0.0.1", port, localAddress: address }),
          servername: SITE,
          ca,
          ALPNProtocols: ["h2"],
        }),
    });
    // A refused connection is reported by the request that needed it.
    this.session.on("error", () => {});
  }

  get protocol(): string | false | undefined {
    return this.session.alpnProtocol;
  }

  request(
    method: string,
    path: string,
    { json, form, headers = {} }: { json?: unknown; form?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const body =
      json !== undefined
        ? Buffer.from(JSON.stringify(json))
        : form !== undefined
          ? Buffer.from(form)
          : undefined;
    const type = json !== undefined ? "application/json" : "application/x-www-form-urlencoded";
    const stream = this.session.request({
      ":method": method,
      ":path": path,
      "user-agent": DESKTOP,
      "accept-encoding": "br, gzip",
      ...(this.cookie ? { cookie: this.cookie } : {}),
      ...(body ? { "content-type": type, "content-length": String(body.length) } : {}),
      ...headers,
    });
    stream.end(body);
    return new Promise((resolve, reject) => {
      let responseHeaders: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      stream.on("response", (received) => {
        responseHeaders = received;
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        const encoding = responseHeaders["content-encoding"];
        const body =
          encoding === "br" ? brotliDecompressSync(raw) : encoding === "gzip" ? gunzipSync(raw) : raw;
        resolve({
          status: Number(responseHeaders[":status"]),
          headers: responseHeaders,
          body: body.toString("utf8"),
          instance: String(responseHeaders["x-test-upstream"] ?? ""),
        });
      });
      stream.on("error", reject);
    });
  }

  close(): void {
    this.session.close();
  }
}

const lead = (n: number) => ({
  fullName: `Priya Shah ${n}`,
  email: `priya.shah.${n}@shah-civils.co.uk`,
  company: "Shah Civils Ltd",
  phone: "+44 7700 900456",
  message: "Two sites, one database",
});

describe.skipIf(missing.length > 0)("two instances behind nginx on one PostgreSQL", () => {
  let dir: string;
  let dropSchema: (() => Promise<void>) | undefined;
  let database: AppDatabase | undefined;
  let smtp: TestSmtp | undefined;
  const instances: RunningServer[] = [];
  let instanceEnv: Record<string, string> = {};
  let nginx: ChildProcess | undefined;
  let nginxOutput = "";
  let ca: Buffer;
  let ports: { tls: number; plain: number; instances: number[] };
  const clients: Client[] = [];
  const client = (address: string) => {
    const made = new Client(address, ports.tls, ca);
    clients.push(made);
    return made;
  };
  const instanceAddresses = () => instances.map((instance) => new URL(instance.url).host).sort();
  const use = () => {
    if (!database) throw new Error("not started");
    return database.db;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "two-instances-"));
    const schema = await createPostgresSchema();
    dropSchema = schema.drop;

    // A mail server that records each message it accepts.
    smtp = await startTestSmtp();

    // As the runbook does: migrate once, before any instance starts; then an admin.
    await prepareSharedDatabase(schema.url, ADMIN);
    database = openDatabase(schema.url, { poolSize: 2 });

    // The same environment file for both, as /etc/clausebridge/clausebridge.env would give them.
    instanceEnv = {
      DATABASE_URL: schema.url,
      TRUST_PROXY: "1",
      LEAD_RATE_LIMIT: String(LEAD_RATE_LIMIT),
      LEAD_MIN_FILL_SECONDS: "0",
      SMTP_URL: smtp.url,
      LEAD_NOTIFICATION_TO: "sales@clausebridge.test",
      MAIL_FROM: "Clausebridge website <no-reply@clausebridge.test>",
      DATABASE_POOL_SIZE: "4",
    };
    await startInstances(instanceEnv, 2, instances);

    ca = makeCertificate(dir);
    ports = {
      tls: await freePort(),
      plain: await freePort(),
      instances: instances.map((instance) => Number(new URL(instance.url).port)),
    };
    const config = writeNginxConfig(dir, ports);
    const checked = spawnSync(
      NGINX as string,
      ["-t", "-q", "-p", `${dir}/`, "-c", config, "-e", join(dir, "error.log")],
      {
        encoding: "utf8",
      },
    );
    if (checked.status !== 0) throw new Error(`nginx -t refused the deploy config:\n${checked.stderr}`);
    const child = spawn(NGINX as string, ["-p", `${dir}/`, "-c", config, "-e", join(dir, "error.log")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    nginx = child;
    child.stdout.on("data", (chunk: Buffer) => {
      nginxOutput += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      nginxOutput += chunk.toString();
    });
    // Serving once /healthz answers through it (bounded; a quick exit fails at once).
    await vi.waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${nginxOutput}`);
        // A new connection each time: one refused before nginx listens is gone for good.
        expect((await client("127.0.0.1").request("GET", "/healthz")).status).toBe(200);
      },
      { timeout: 15_000, interval: 100 },
    );
  }, 90_000);

  afterAll(async () => {
    for (const each of clients) each.close();
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      const child = nginx;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(force);
    }
    await Promise.allSettled(instances.map((instance) => instance.stop()));
    await smtp?.close();
    await database?.close();
    await dropSchema?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it("answers over TLS with HTTP/2, redirects plain HTTP, refuses bodies over 64 KB (over their own limit on the routes that take more), asks both for a missing asset, keeps /metrics and /readyz inside", async () => {
    const visitor = client("127.0.0.2");
    const home = await visitor.request("GET", "/");
    expect(home.status).toBe(200);
    expect(visitor.protocol).toBe("h2");
    // The app saw HTTPS through X-Forwarded-Proto (TRUST_PROXY=1).
    expect(home.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
    expect(String(home.headers["content-encoding"])).toMatch(/^(br|gzip)$/);
    // nginx's request id, carried through to the app and back.
    expect(home.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);

    // fetch() will not send another Host than the URL's.
    const plain = await new Promise<{ status?: number; location?: string }>((resolve, reject) => {
      const request = httpRequest({
        host: "127.0.0.1",
        port: ports.plain,
        path: "/demo?x=1",
        headers: { Host: SITE },
      });
      request.on("response", (response) => {
        response.resume();
        resolve({ status: response.statusCode, location: response.headers.location });
      });
      request.on("error", reject);
      request.end();
    });
    expect(plain).toEqual({ status: 301, location: `https://${SITE}/demo?x=1` });

    // A body over the app's largest limit is refused by nginx, in the API's shape.
    const big = await visitor.request("POST", "/api/demo-request", {
      json: { ...lead(1), message: "x".repeat(80 * 1024) },
    });
    expect(big.status).toBe(413);
    expect(big.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(big.body)).toEqual({ message: "Request body too large: the limit is 64 KB." });

    // The routes that take more keep the app's own limits (app/lib/body-limits.ts): a 300 KB post
    // through the API and a 600 KB form of the post editor reach the app (which asks this signed-out
    // caller to sign in); past the route's limit nginx refuses them.
    const post = (size: number) => ({ kind: "article", title: "Long", body: "x".repeat(size) });
    expect((await visitor.request("POST", "/api/admin/posts", { json: post(300 * 1024) })).status).toBe(401);
    const bigPost = await visitor.request("POST", "/api/admin/posts", { json: post(400 * 1024) });
    expect([bigPost.status, JSON.parse(bigPost.body)]).toEqual([413, { message: "Request body too large." }]);
    const editorForm = (size: number) =>
      new URLSearchParams({ intent: "save", body: "—".repeat(size) }).toString();
    const editor = await visitor.request("POST", "/admin/content/new", {
      form: editorForm((600 * 1024) / 9),
    });
    expect([editor.status, editor.headers.location]).toEqual([
      302,
      "/admin/login?next=%2Fadmin%2Fcontent%2Fnew",
    ]);
    expect(
      (await visitor.request("POST", "/admin/content/new", { form: editorForm((1200 * 1024) / 9) })).status,
    ).toBe(413);

    // A hashed asset one instance lacks (the other release's, during a rollout) is asked of the other.
    const asset = await visitor.request("GET", "/assets/from-another-release-0123abcd.js");
    expect(asset.status).toBe(404);
    expect(asset.instance.split(", ").sort()).toEqual(instanceAddresses());

    for (const path of ["/metrics", "/readyz"]) {
      expect((await visitor.request("GET", path)).status).toBe(404);
    }

    // nginx's access log keeps the network and the path, not the address or the query string.
    const log = readFileSync(join(dir, "clausebridge.access.log"), "utf8");
    expect(log).toContain(' 127.0.0.x "GET /demo HTTP/1.1" 301 ');
    expect(log).toContain(' 127.0.0.x "GET / HTTP/2.0" 200 ');
    expect(log).not.toContain("x=1");
    expect(log).not.toMatch(/127\.0\.0\.2\b/);
  });

  it("keeps a staff session made on one instance on the other, and ends it on both", async () => {
    const staff = client("127.0.0.3");
    const origin = `https://${SITE}:${ports.tls}`;
    const login = await staff.request("POST", "/api/login", { json: ADMIN, headers: { origin } });
    expect(login.status).toBe(200);
    const setCookie = ([] as string[]).concat(login.headers["set-cookie"] ?? []);
    staff.cookie = setCookie.map((cookie) => cookie.split(";")[0]).join("; ");
    // Over HTTPS (as the app sees it through nginx): the __Host- cookie.
    expect(staff.cookie).toMatch(/__Host-session=/);

    const answers: Answer[] = [];
    for (let i = 0; i < 4; i++) answers.push(await staff.request("GET", "/api/user"));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    for (const answer of answers) expect(JSON.parse(answer.body)).toMatchObject({ username: ADMIN.username });
    expect([...new Set([login, ...answers].map((answer) => answer.instance))].sort()).toEqual(
      instanceAddresses(),
    );

    expect([200, 204]).toContain(
      (await staff.request("POST", "/api/logout", { headers: { origin } })).status,
    );
    const after: Answer[] = [];
    for (let i = 0; i < 2; i++) after.push(await staff.request("GET", "/api/user"));
    expect(after.map((answer) => answer.status)).toEqual([401, 401]);
    expect(after.map((answer) => answer.instance).sort()).toEqual(instanceAddresses());
  });

  it("holds one client to LEAD_RATE_LIMIT leads across both instances, whatever X-Forwarded-For it forges", async () => {
    const sender = client("127.0.0.4");
    // At once, so both instances race on the one window; each request claims another address.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        sender.request("POST", "/api/demo-request", {
          json: lead(100 + i),
          headers: { "x-forwarded-for": `198.51.100.${i + 1}` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(LEAD_RATE_LIMIT).fill(201), ...Array(8 - LEAD_RATE_LIMIT).fill(429)]);
    expect([...new Set(answers.map((answer) => answer.instance))].sort()).toEqual(instanceAddresses());
    const stored = await use()
      .selectFrom("leads")
      .select("id")
      .where("email", "like", "priya.shah.1__@%")
      .execute();
    expect(stored).toHaveLength(LEAD_RATE_LIMIT);

    // Another visitor (another address as nginx sees it) has a window of its own.
    const other = await client("127.0.0.5").request("POST", "/api/demo-request", { json: lead(200) });
    expect(other.status).toBe(201);
  });

  it("gives one visitor one id for the day on both instances, from the one shared salt", async () => {
    // Pages no other test here opens, so their views are this test's alone.
    const readerPaths = ["/problem", "/solution", "/features", "/invest"];
    const reader = client("127.0.0.6");
    const served: string[] = [];
    for (const path of readerPaths) {
      const page = await reader.request("GET", path);
      expect(page.status).toBe(200);
      served.push(page.instance);
    }
    expect([...new Set(served)].sort()).toEqual(instanceAddresses());
    // Another visitor (another address as nginx sees it), with the same browser.
    expect((await client("127.0.0.7").request("GET", "/privacy-policy")).status).toBe(200);

    const paths = [...readerPaths, "/privacy-policy"];
    const rows = () =>
      use()
        .selectFrom("analyticsPageViews")
        .select(["path", "visitorId"])
        .where("path", "in", paths)
        .execute();
    // Each instance buffers its page views and writes them within a couple of seconds.
    await vi.waitFor(async () => expect(await rows()).toHaveLength(paths.length), {
      timeout: 15_000,
      interval: 100,
    });
    const byVisitor = new Map<string, string[]>();
    for (const row of await rows())
      byVisitor.set(row.visitorId, [...(byVisitor.get(row.visitorId) ?? []), row.path]);
    const visitors = [...byVisitor.values()].map((seen) => seen.sort()).sort((a, b) => a.length - b.length);
    expect(visitors).toEqual([["/privacy-policy"], [...readerPaths].sort()]);
    expect(await use().selectFrom("analyticsSalts").select("day").execute()).toHaveLength(1);
  });

  it("keeps answering through a rollout that restarts one instance after the other", async () => {
    const visitor = client("127.0.0.8");
    // As docs/operations.md does it: restart one, wait until it is ready, then the next.
    for (const [n, address] of instanceAddresses().entries()) {
      const index = instances.findIndex((instance) => new URL(instance.url).host === address);
      await instances[index]?.stop();
      // Meanwhile every request, a lead included, is answered by the other one.
      const during: Answer[] = [];
      for (const path of ["/", "/features", "/healthz"]) during.push(await visitor.request("GET", path));
      during.push(await visitor.request("POST", "/api/demo-request", { json: lead(400 + n) }));
      expect(during.map((answer) => answer.status)).toEqual([200, 200, 200, 201]);
      const servedBy = new Set(during.map((answer) => answer.instance.split(", ").at(-1)));
      expect(servedBy).toEqual(new Set(instanceAddresses().filter((other) => other !== address)));

      // The new release on the same port.
      instances[index] = await startServer(instanceEnv, { port: Number(address.split(":")[1]) });
      await vi.waitFor(async () => expect((await fetch(`http://${address}/readyz`)).status).toBe(200), {
        timeout: 10_000,
        interval: 100,
      });
    }
    // Both serve again (no instance is left marked down).
    const after: string[] = [];
    for (let i = 0; i < 4; i++) after.push((await visitor.request("GET", "/healthz")).instance);
    expect([...new Set(after)].sort()).toEqual(instanceAddresses());
  });

  it("sends each lead's email exactly once though both instances run the outbox worker", async () => {
    // Six leads at once from six visitors, so both workers find several messages waiting together.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        client(`127.0.1.${i + 1}`).request("POST", "/api/demo-request", { json: lead(300 + i) }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect([...new Set(answers.map((answer) => answer.instance))].sort()).toEqual(instanceAddresses());

    const outbox = () =>
      use().selectFrom("outbox").select(["id", "status"]).where("kind", "=", "lead-notification").execute();
    // Every lead stored here is genuine, so each has its email: these six and the earlier tests'.
    const leads = await use().selectFrom("leads").select("id").execute();
    const expected = leads.length;
    expect(expected).toBeGreaterThanOrEqual(6);
    await vi.waitFor(
      async () => {
        const rows = await outbox();
        expect(rows).toHaveLength(expected);
        expect(rows.every((row) => row.status === "sent")).toBe(true);
      },
      { timeout: 20_000, interval: 200 },
    );
    // Stop both (a send in progress finishes first): nothing can be sent after this.
    await Promise.all(instances.map((instance) => instance.stop()));
    const ids = (smtp?.received ?? []).map((mail) => mail.messageId);
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);
    for (const row of await outbox())
      expect(ids.filter((id) => id.includes(`.outbox-${row.id}@`))).toHaveLength(1);
  });
});
