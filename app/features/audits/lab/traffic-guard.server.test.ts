import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./lab-browser.server.ts";
import { chromiumPath, isExecutable, labChromiumFlags } from "./lab-chromium.server.ts";
import { startTrafficGuard } from "./traffic-guard.server.ts";

// Issue 25: the SSRF guard covers every request the browser makes. A page on a "public" host (here
// 127.0.0.2, the only private address the policy lets through) loads images, scripts, an iframe
// and fetch() calls from a canary on another loopback address and from the metadata service:
// every one reaches the proxy, is refused and listed, and the canary is never hit.

async function listen(server: http.Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

describe.skipIf(!isExecutable(chromiumPath()))("the traffic guard with Chromium", () => {
  let canaryHits: string[] = [];
  const canary = http.createServer((request, response) => {
    canaryHits.push(request.url ?? "");
    response.end("canary");
  });
  let canaryPort = 0;
  let pageUrl = "";
  const page = http.createServer((request, response) => {
    if (request.url === "/ok.png") {
      response.writeHead(204).end();
      return;
    }
    const c = `127.0.0.1:${canaryPort}`;
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html><head><title>fixture</title>
<script src="http://localhost:${canaryPort}/script.js"></script>
</head><body><h1>Public page</h1>
<img src="/ok.png" alt="">
<img src="http://${c}/img.png" alt="">
<img src="http://169.254.169.254/latest/meta-data/img.png" alt="">
<img src="http://[fd00:ec2::254]/latest/img.png" alt="">
<img src="http://metadata.google.internal/computeMetadata/v1/" alt="">
<iframe src="http://${c}/frame.html"></iframe>
<script>
  window.done = Promise.allSettled([
    fetch("http://${c}/fetch"),
    fetch("http://169.254.169.254/latest/meta-data/iam/security-credentials/"),
    fetch("https://${c}/tls"),
    fetch("http://100.100.100.200/latest/meta-data/"),
  ]).then((outcomes) => outcomes.map((o) => o.status));
</script></body></html>`);
  });

  beforeAll(async () => {
    canaryPort = await listen(canary, "127.0.0.1");
    pageUrl = `http://127.0.0.2:${await listen(page, "127.0.0.2")}/`;
  });
  afterAll(async () => {
    canary.closeAllConnections();
    page.closeAllConnections();
    await Promise.all([
      new Promise((resolve) => canary.close(resolve)),
      new Promise((resolve) => page.close(resolve)),
    ]);
  });

  it("refuses loopback and metadata subresources, lists each one, and the canary is never hit", async () => {
    canaryHits = [];
    const guard = await startTrafficGuard({ allowPrivate: (address) => address === "127.0.0.2" });
    const profile = mkdtempSync(join(tmpdir(), "lab-guard-test-"));
    const browser = await launchChromium(chromiumPath(), labChromiumFlags(guard.proxyUrl, profile));
    try {
      const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
      const context = cdp.contexts()[0] ?? (await cdp.newContext());
      const tab = await context.newPage();
      await tab.goto(pageUrl, { waitUntil: "load" });
      const outcomes = await tab.evaluate(() => (window as unknown as { done: Promise<string[]> }).done);
      // Every fetch() failed: the proxy answered 403 (http) or refused the tunnel (https).
      expect(outcomes).toEqual(["rejected", "rejected", "rejected", "rejected"]);
      await cdp.close();

      const urls = guard.blocked.map((entry) => entry.url);
      expect(urls).toEqual(
        expect.arrayContaining([
          `http://localhost:${canaryPort}/script.js`,
          `http://127.0.0.1:${canaryPort}/img.png`,
          `http://127.0.0.1:${canaryPort}/frame.html`,
          `http://127.0.0.1:${canaryPort}/fetch`,
          `https://127.0.0.1:${canaryPort}/`,
          "http://169.254.169.254/latest/meta-data/img.png",
          "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
          "http://[fd00:ec2::254]/latest/img.png",
          "http://metadata.google.internal/computeMetadata/v1/",
          "http://100.100.100.200/latest/meta-data/",
        ]),
      );
      const reasonOf = (url: string) => guard.blocked.find((entry) => entry.url === url)?.reason;
      expect(reasonOf(`http://127.0.0.1:${canaryPort}/img.png`)).toMatch(/loopback address/);
      expect(reasonOf(`http://localhost:${canaryPort}/script.js`)).toMatch(
        /localhost resolves to a loopback/,
      );
      expect(reasonOf("http://169.254.169.254/latest/meta-data/img.png")).toMatch(/cloud metadata/);
      expect(canaryHits).toEqual([]);
      // The page itself came through the proxy (the browser made no direct connection).
      expect(guard.stats.connections).toBeGreaterThanOrEqual(2);
    } finally {
      browser.kill();
      await guard.close();
      // Chromium may still be writing its profile for a moment after the kill signal.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  }, 60_000);

  it("refuses metadata even when every private target is allowed (AUDIT_ALLOW_PRIVATE_TARGETS=true)", async () => {
    const guard = await startTrafficGuard({ allowPrivate: true });
    try {
      const viaProxy = (path: string) =>
        new Promise<number>((resolve, reject) => {
          http
            .get({ host: "127.0.0.1", port: guard.port, path }, (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            })
            .on("error", reject);
        });
      expect(await viaProxy("http://169.254.169.254/latest/meta-data/")).toBe(403);
      expect(await viaProxy("http://metadata.google.internal/")).toBe(403);
      expect(await viaProxy("http://[::ffff:169.254.169.254]/")).toBe(403);
      // A private address is let through under that setting: the canary answers.
      canaryHits = [];
      expect(await viaProxy(`http://127.0.0.1:${canaryPort}/allowed`)).toBe(200);
      expect(canaryHits).toEqual(["/allowed"]);
      // Not a proxy request (a relative path): refused, nothing forwarded.
      expect(await viaProxy("/relative")).toBe(405);
      expect(guard.blocked.map((entry) => entry.url)).toEqual([
        "http://169.254.169.254/latest/meta-data/",
        "http://metadata.google.internal/",
        "http://[::ffff:a9fe:a9fe]/",
      ]);
    } finally {
      await guard.close();
    }
  });
});
