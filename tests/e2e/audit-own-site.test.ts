import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanWebsite } from "../../app/features/audits/audit-scan.server.ts";
import { analyse } from "../../app/features/audits/observatory/analyse.ts";
import { runPerformanceCheck } from "../../app/features/audits/performance-check.server.ts";
import { allowLoopbackOnly } from "../../app/features/audits/testing/test-servers.ts";
import {
  createTestCertificates,
  type TestCertificates,
} from "../../app/lib/safe-fetch/testing/test-certificates.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";

// Issue 5: "The product's own site, audited by its own tool over HTTPS, gets A+." The production
// server runs as deployed: behind a TLS-terminating proxy (TRUST_PROXY=1) that also redirects plain
// HTTP to HTTPS. The proxy here is a few lines of node:https with a certificate authority the test
// makes; the audit trusts that authority and nothing else changes.

let app: RunningServer;
let certificates: TestCertificates;
let dataDir: string;
const listeners: http.Server[] = [];
let httpsOrigin = "";
let httpOrigin = "";

async function listen(server: http.Server): Promise<string> {
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "own-site-"));
  app = await startServer({ DATABASE_URL: join(dataDir, "own.sqlite"), TRUST_PROXY: "1" });
  const upstream = new URL(app.url);
  certificates = await createTestCertificates();
  const proxy = https.createServer(certificates.valid, (request, response) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.7" },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on("error", () => response.destroy());
    request.pipe(forwarded);
  });
  httpsOrigin = `https://${await listen(proxy)}`;
  const redirector = http.createServer((request, response) => {
    response.writeHead(301, { Location: `${httpsOrigin}${request.url ?? "/"}` });
    response.end();
  });
  httpOrigin = `http://${await listen(redirector)}`;
}, 60_000);

afterAll(async () => {
  await Promise.all(listeners.map((server) => new Promise((resolve) => server.close(resolve))));
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the product's own site, audited by its own tool over HTTPS", () => {
  it("gets A+", async () => {
    const scan = await scanWebsite(
      new URL(`${httpsOrigin}/`),
      { allowPrivate: allowLoopbackOnly, ca: certificates.ca },
      { http: `${httpOrigin}/`, https: `${httpsOrigin}/` },
    );
    const result = analyse(scan, { corsOrigin: scan.corsOrigin });
    console.log(
      `[own site] grade ${result.grade}, score ${result.score} (uncapped ${result.uncappedScore}); ` +
        `tests: ${result.tests.map((test) => `${test.name} ${test.scoreModifier >= 0 ? "+" : ""}${test.scoreModifier}`).join(", ")}; ` +
        `issues: ${result.issues.map((issue) => `${issue.severity} ${issue.id}`).join(", ") || "none"}`,
    );
    expect(result.grade).toBe("A+");
    expect(result.score).toBe(100);
    expect(
      result.issues.filter((issue) => issue.severity === "critical" || issue.severity === "high"),
    ).toEqual([]);
  });

  it("has its home page's performance measured (median of 3 runs)", async () => {
    const result = await runPerformanceCheck(`${httpsOrigin}/`, {
      allowPrivate: allowLoopbackOnly,
      ca: certificates.ca,
    });
    console.log(`[own site] performance ${JSON.stringify(result)}`);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(200);
    expect(result.hasCompression).toBe(true);
    expect(result.contentLength).toBeGreaterThan(10_000);
    expect(result.runs).toHaveLength(3);
  });
});
