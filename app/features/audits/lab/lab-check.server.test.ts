import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLabCheck } from "./lab-check.server.ts";
import { chromiumPath, isExecutable } from "./lab-chromium.server.ts";
import { isSafeImageDataUrl, LAB_METRIC_KEYS, MAX_SCREENSHOT_CHARS } from "./lab-types.ts";

// Issue 25: the lab check end to end, one real Lighthouse run (15-30 s on this machine) against a
// local page on 127.0.0.2 (the one private address allowed), whose image from a canary on 127.0.0.1
// is refused by the traffic guard. Plus the two runs that never measure: no browser, and a page that
// never finishes loading (the whole process group is killed, Chromium included).

/** After a run: which processes still name this run's profile (read asynchronously, like everything here). */
async function chromiumProcessesUsing(fragment: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ((await readFile(`/proc/${entry}/cmdline`, "utf8")).includes(fragment)) found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

describe("runLabCheck", () => {
  let canaryHits = 0;
  const canary = http.createServer((_request, response) => {
    canaryHits += 1;
    response.end();
  });
  let canaryPort = 0;
  const page = http.createServer((request, response) => {
    if (request.url === "/never") return; // never answers: the run's time budget ends it
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">
<title>Lab fixture</title><style>body{font:18px sans-serif;margin:2rem}h1{color:#1e3a5f}</style></head>
<body><h1 id="headline">A page for the lab check</h1><p>${"Words to paint. ".repeat(40)}</p>
<img src="http://127.0.0.1:${canaryPort}/pixel.png" alt="" width="1" height="1"></body></html>`);
  });
  let origin = "";

  beforeAll(async () => {
    await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
    canaryPort = (canary.address() as AddressInfo).port;
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.2", resolve));
    origin = `http://127.0.0.2:${(page.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    canary.closeAllConnections();
    page.closeAllConnections();
    await new Promise((resolve) => canary.close(resolve));
    await new Promise((resolve) => page.close(resolve));
  });

  it("says how to install Chromium when there is none", async () => {
    const result = await runLabCheck(`${origin}/`, { chromiumPath: "/nonexistent/chromium" });
    expect(result.failure).toBe("chromium-missing");
    expect(result.error).toBe("Chromium is not installed");
    expect(result.details).toContain("apt-get install chromium");
    expect(result.details).toContain("CHROMIUM_PATH");
  });

  it("refuses a private page before starting a browser", async () => {
    const result = await runLabCheck(`${origin}/`, { allowPrivate: false });
    expect(result.failure).toBe("refused");
    expect(result.details).toMatch(/loopback address.*AUDIT_ALLOW_PRIVATE_TARGETS/);
    const metadata = await runLabCheck("http://169.254.169.254/", { allowPrivate: true });
    expect(metadata.failure).toBe("refused");
    expect(metadata.details).toMatch(/cloud metadata/);
  });

  it.skipIf(!isExecutable(chromiumPath()))(
    "measures a page with Lighthouse: score, six rated metrics, LCP element, screenshots, the blocked image",
    async () => {
      canaryHits = 0;
      const result = await runLabCheck(`${origin}/`, { allowPrivate: ["127.0.0.2"], device: "mobile" });
      expect(result.error, result.details).toBeUndefined();
      expect(result.failure).toBeUndefined();
      expect(result.device).toBe("mobile");
      expect(result.lighthouseVersion).toBe("13.5.0");
      expect(result.finalUrl).toBe(`${origin}/`);
      // A page without scripts; the floor only catches a 0-1 score mistaken for 0-100, not a slow machine.
      expect(result.score).toBeGreaterThanOrEqual(20);
      expect(result.score).toBeLessThanOrEqual(100);
      for (const key of LAB_METRIC_KEYS) {
        expect(Number.isFinite(result.metrics[key].value), key).toBe(true);
        expect(["good", "needs-improvement", "poor"]).toContain(result.metrics[key].rating);
        expect(result.metrics[key].displayValue, key).not.toBe("");
      }
      expect(result.metrics.lcp.value).toBeGreaterThan(0);
      expect(result.metrics.cls.value).toBe(0);
      expect(result.metrics.cls.rating).toBe("good");
      expect(result.lcpElement?.selector ?? "").toMatch(/p|h1/);
      expect(result.resources.find((row) => row.type === "document")?.requests).toBe(1);
      expect(isSafeImageDataUrl(result.finalScreenshot, MAX_SCREENSHOT_CHARS)).toBe(true);
      expect(result.filmstrip.length).toBeGreaterThan(0);
      expect(result.blocked).toEqual([
        {
          url: `http://127.0.0.1:${canaryPort}/pixel.png`,
          reason: expect.stringMatching(/loopback address/),
        },
      ]);
      expect(canaryHits).toBe(0);
    },
    120_000,
  );

  it.skipIf(!isExecutable(chromiumPath()))(
    "kills the whole process tree, Chromium included, when the time budget runs out",
    async () => {
      // A folder of this test's own: other lab runs (other test files) may run meanwhile.
      const parent = await mkdtemp(join(tmpdir(), "lab-kill-test-"));
      try {
        const result = await runLabCheck(`${origin}/never`, {
          allowPrivate: ["127.0.0.2"],
          timeoutMs: 6_000,
          profileParent: parent,
        });
        expect(result.failure).toBe("timeout");
        expect(result.error).toBe("The lab check took too long");
        expect(await readdir(parent)).toEqual([]); // the profile folder was deleted
        // No process is left using that profile: Chromium and its renderers died with the group.
        await expect.poll(async () => (await chromiumProcessesUsing(parent)).length).toBe(0);
      } finally {
        await rm(parent, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
