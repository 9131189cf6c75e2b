import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { createTestCertificates } from "#app/lib/safe-fetch/testing/test-certificates.ts";
import { runPerformanceCheck } from "./performance-check.server.ts";
import { type Handler, startTestServer, type TestServer } from "./testing/test-servers.ts";

const servers: TestServer[] = [];
async function serve(handler: Handler, kind: "http" | "https" | "http2" = "http", certificate?: object) {
  const server = await startTestServer(kind, handler, certificate as { key: string; cert: string });
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const page = `<!doctype html><title>Home</title>${"<p>Contract management for construction.</p>".repeat(200)}`;

describe("runPerformanceCheck", () => {
  it("reports the median of 3 runs, each on a fresh connection", async () => {
    // The runs answer after 1,200, 0 and 500 ms: the median is the third run, not the first or last.
    // (Far apart, so a busy machine's jitter cannot reorder them.)
    const delays = [1200, 0, 500];
    let request = 0;
    const server = await serve((_request, response) => {
      const delay = delays[request++] ?? 0;
      setTimeout(() => {
        response.writeHead(200, {
          server: "nginx/1.27.0",
          "cache-control": "public, max-age=300",
          "content-encoding": "br",
          "content-type": "text/html; charset=utf-8",
        });
        response.end(zlib.brotliCompressSync(page));
      }, delay);
    });
    const result = await runPerformanceCheck(server.origin, { allowPrivate: true });

    expect(server.connections()).toBe(3);
    expect(result.runs).toHaveLength(3);
    const [slow = 0, fast = 0, middle = 0] = result.runs ?? [];
    expect(slow).toBeGreaterThanOrEqual(1200);
    expect(fast).toBeLessThan(middle);
    expect(middle).toBeGreaterThanOrEqual(500);
    expect(middle).toBeLessThan(slow);
    expect(result.loadTime).toBe(middle);
    expect(Number.isInteger(result.loadTime)).toBe(true);
    // The median run's phases: its wait for the first byte holds the 500 ms delay.
    expect(result.timings?.ttfbMs).toBeGreaterThanOrEqual(495);
    expect(result.timings?.ttfbMs).toBeLessThan(1200);

    expect(result).toMatchObject({
      url: server.origin,
      status: 200,
      contentLength: Buffer.byteLength(page),
      hasCompression: true,
      compression: "br",
      serverType: "nginx/1.27.0",
      cacheControl: "public, max-age=300",
      httpVersion: "1.1",
      http2Offered: false,
      redirects: [],
    });
    expect(result.transferredBytes).toBeLessThan(result.contentLength);
    expect(result.error).toBeUndefined();
  });

  it("keeps the redirect chain and reports an uncompressed page without a Server header", async () => {
    const server = await serve((request, response) => {
      if (request.url === "/") response.writeHead(301, { location: "/home" }).end();
      else response.end(page);
    });
    const result = await runPerformanceCheck(`${server.origin}/`, { allowPrivate: true, runs: 1 });
    expect(result).toMatchObject({
      status: 200,
      contentLength: Buffer.byteLength(page),
      hasCompression: false,
      compression: "none",
      serverType: "Unknown",
      cacheControl: null,
      redirects: [{ url: `${server.origin}/`, status: 301 }],
    });
    expect(result.runs).toHaveLength(1);
  });

  it("tells whether HTTP/2 is offered", async () => {
    const certificates = await createTestCertificates();
    const server = await serve((_request, response) => response.end(page), "http2", certificates.valid);
    const result = await runPerformanceCheck(`https://127.0.0.1:${server.port}/`, {
      allowPrivate: true,
      ca: certificates.ca,
      runs: 1,
    });
    expect(result).toMatchObject({ status: 200, httpVersion: "2", http2Offered: true });
    expect(result.timings?.tlsMs).toBeGreaterThanOrEqual(0);
  });

  it("answers the spec's failure card for a refused target", async () => {
    expect(await runPerformanceCheck("http://169.254.169.254/latest/meta-data/")).toEqual({
      url: "http://169.254.169.254/latest/meta-data/",
      error: "Refused",
      details:
        "Refused: 169.254.169.254 is a cloud metadata address (the AWS, Google Cloud, Azure, Oracle and " +
        "OpenStack metadata service, 169.254.169.254/32); cloud metadata is never reached, whatever " +
        "AUDIT_ALLOW_PRIVATE_TARGETS says.",
      loadTime: 0,
      status: 0,
      contentLength: 0,
      hasCompression: false,
      serverType: "Unknown",
    });
  });

  it("reports a timeout and a refused connection", async () => {
    const silent = await serve(() => {});
    const timedOut = await runPerformanceCheck(silent.origin, { allowPrivate: true, timeoutMs: 300 });
    expect(timedOut).toMatchObject({ error: "Timed out after 0.3 s", loadTime: 0, status: 0 });

    const closed = await serve(() => {});
    await closed.close();
    const refused = await runPerformanceCheck(closed.origin, { allowPrivate: true });
    expect(refused).toMatchObject({
      error: "Connection refused",
      serverType: "Unknown",
      hasCompression: false,
    });
  });
});
