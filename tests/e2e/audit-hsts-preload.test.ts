import { execFile } from "node:child_process";
import { lookup } from "node:dns/promises";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PRELOAD_LIST_SAMPLE } from "../../app/features/audits/testing/chromium-preload-list.ts";
import { createTestCertificates } from "../../app/lib/safe-fetch/testing/test-certificates.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { signIn } from "./support/accounts.ts";

// The operator's path for the HSTS preload credit, end to end: the server starts without a list and
// says so, audits note "HSTS preload status not checked", `npm run audit:update-hsts-preload` stores
// the list in the running server's database, and the next audit of a listed host (here `localhost`,
// which the sample lists) gets the reference's "hsts-preloaded" +5, without a restart.

const root = join(import.meta.dirname, "..", "..");
const ADMIN = { username: "preload-admin", password: "preload admin passphrase" };
const servers: http.Server[] = [];
let app: RunningServer;
let dataDir: string;
let databaseUrl: string;
let listUrl = "";
let target = "";
let cookie = "";

async function listen(server: http.Server, host: string): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

function updateList(from: string) {
  return promisify(execFile)(process.execPath, ["scripts/update-hsts-preload.ts", "--from", from], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "hsts-preload-"));
  databaseUrl = join(dataDir, "preload.sqlite");
  app = await startServer({
    DATABASE_URL: databaseUrl,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    AUDIT_ALLOW_PRIVATE_TARGETS: "true",
  });
  cookie = await signIn(app.url, ADMIN.username, ADMIN.password);

  const listPort = await listen(
    http.createServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.end(CHROMIUM_PRELOAD_LIST_SAMPLE);
    }),
    "127.0.0.1",
  );
  listUrl = `http://127.0.0.1:${listPort}/transport_security_state_static.json`;

  // A site with no Strict-Transport-Security header at all, on whatever address localhost is here.
  const { address } = await lookup("localhost");
  const sitePort = await listen(
    https.createServer((await createTestCertificates()).valid, (_request, response) => {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end("<!doctype html><title>Preloaded</title><p>Hello</p>");
    }),
    address,
  );
  target = `https://localhost:${sitePort}/`;
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type AuditAnswer = {
  uncappedScore: number;
  tests: { name: string; result: string; scoreModifier: number }[];
  issues: { id: string }[];
};

async function audit(): Promise<AuditAnswer> {
  const answer = await fetch(`${app.url}/api/admin/security-audit`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: new URL(app.url).origin, Cookie: cookie },
    body: JSON.stringify({ url: target }),
  });
  expect(answer.status).toBe(201);
  return (await answer.json()) as AuditAnswer;
}

const hstsOf = (result: AuditAnswer) =>
  result.tests.find((test) => test.name === "strict-transport-security");

describe("the HSTS preload list", () => {
  it("is missing at first: start-up and each audit say so", async () => {
    expect(app.startupOutput).toContain(
      "Website audits: no HSTS preload list yet, so preloaded sites miss the Observatory's 5 points; download it with `npm run audit:update-hsts-preload`.",
    );
    const before = await audit();
    expect(hstsOf(before)?.result).toBe("hsts-invalid-cert");
    expect(before.issues.map((issue) => issue.id)).toContain("hsts-preload-unchecked");
  });

  it("fails loudly when the list cannot be downloaded, and audits still say it is missing", async () => {
    // A port that was free a moment ago: nothing answers there.
    const probe = http.createServer();
    const port = await listen(probe, "127.0.0.1");
    await new Promise((resolve) => probe.close(resolve));
    const unreachable = `http://127.0.0.1:${port}/transport_security_state_static.json`;
    await expect(updateList(unreachable)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `Could not update the HSTS preload list: Could not download ${unreachable} (127.0.0.1:${port} refused the connection (connect ECONNREFUSED`,
      ),
    });
    expect((await audit()).issues.map((issue) => issue.id)).toContain("hsts-preload-unchecked");
  });

  it("once stored by the command, counts for the next audit of a listed host", async () => {
    const { stdout } = await updateList(listUrl);
    expect(stdout).toContain(`stored 5 preloaded host names (3 with subdomains) from ${listUrl}`);
    const after = await audit();
    expect(hstsOf(after)).toMatchObject({ result: "hsts-preloaded", scoreModifier: 5 });
    expect(after.issues.map((issue) => issue.id)).not.toContain("hsts-preload-unchecked");
  });
});
