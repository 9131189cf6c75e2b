import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FAKE_CREDENTIAL,
  type FakeNetwork,
  METADATA_HTTPS_URLS,
  METADATA_NAMES_RESOLVED,
  METADATA_URLS,
  startFakeNetwork,
} from "#app/lib/safe-fetch/testing/fake-network.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { runAuditJob } from "./audit-job.server.ts";
import { readPreloadListSource } from "./hsts-preload-list.server.ts";
import { startTrafficGuard, type TrafficGuard } from "./lab/traffic-guard.server.ts";
import { runPerformanceCheck } from "./performance-check.server.ts";
import { safeFetch } from "./safe-fetch.server.ts";
import { runTlsCheck } from "./tls/tls-check.server.ts";
import { createWatch } from "./watches/watch-service.server.ts";

// Issue 32 point 1: every outbound path of the audits refuses cloud metadata, in every spelling,
// with AUDIT_ALLOW_PRIVATE_TARGETS=true. The network is a fake one (an injected resolver and
// connector): nothing but loopback is ever connected to, and a stand-in metadata server on
// 127.0.0.1 answers in place of any other address, so code without the policy shows the leak here
// (the fake credential in an answer) instead of reaching a real metadata service.

const REFUSED = /^Refused: .* a cloud metadata address \(.*\); cloud metadata is never reached/;

let network: FakeNetwork;
beforeEach(async () => {
  network = await startFakeNetwork(METADATA_NAMES_RESOLVED);
});
afterEach(async () => {
  // Whatever the path, nothing was connected to but loopback, and the stand-in was never asked.
  expect(network.outward()).toEqual([]);
  expect(network.metadataHits()).toBe(0);
  await network.close();
});

/** A loopback page (allowed: the switch is on) that redirects to whatever ?target= says. */
let redirector: http.Server;
let redirectorOrigin = "";
beforeAll(async () => {
  redirector = http.createServer((request, response) => {
    const target = new URL(request.url ?? "/", "http://x").searchParams.get("target") ?? "/";
    response.writeHead(302, { Location: target, "Content-Type": "text/plain" }).end("moved");
  });
  await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
  redirectorOrigin = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => redirector.close(() => resolve())));
const via302 = (target: string) => `${redirectorOrigin}/to?target=${encodeURIComponent(target)}`;

describe("the security audit, with AUDIT_ALLOW_PRIVATE_TARGETS=true", () => {
  it.each(METADATA_URLS)("refuses %s", async (url) => {
    const outcome = await runAuditJob({ url, allowPrivate: true }, async () => null, network);
    expect(outcome.kind).toBe("unreachable");
    if (outcome.kind !== "unreachable") return;
    expect(outcome.failure.error).toBe("Refused");
    expect(outcome.failure.details).toMatch(REFUSED);
  });

  it.each(METADATA_URLS)("refuses a 302 from an allowed page to %s", async (target) => {
    const url = via302(target);
    const outcome = await runAuditJob({ url, allowPrivate: true }, async () => null, network);
    expect(outcome.kind).toBe("unreachable");
    if (outcome.kind !== "unreachable") return;
    expect(outcome.failure.details).toMatch(REFUSED);
    // "(redirect from …)" or "(after … → 302)": the answer names the allowed page that redirected.
    expect(outcome.failure.details).toContain(url);
    // The allowed page itself was reached: only the hop to metadata was refused.
    expect(network.attempts.map(({ host }) => host)).toContain("127.0.0.1");
  });
});

describe("the performance check, with AUDIT_ALLOW_PRIVATE_TARGETS=true", () => {
  it.each(METADATA_URLS)("refuses %s and a 302 to it", async (url) => {
    for (const target of [url, via302(url)]) {
      const result = await runPerformanceCheck(target, { allowPrivate: true, runs: 1, ...network });
      expect(result.error).toBe("Refused");
      expect(result.details).toMatch(REFUSED);
      expect(JSON.stringify(result)).not.toContain(FAKE_CREDENTIAL);
    }
  });
});

describe("the TLS check, with AUDIT_ALLOW_PRIVATE_TARGETS=true", () => {
  it.each(METADATA_HTTPS_URLS)("refuses %s", async (url) => {
    const result = await runTlsCheck(url, {
      allowPrivate: true,
      resolver: network.resolve,
      connect: network.connect,
      timeoutMs: 5_000,
    });
    expect(result.error).toBe("Refused");
    expect(result.details).toMatch(REFUSED);
  });
});

describe("the HSTS preload download", () => {
  it.each(METADATA_URLS)("refuses %s and a 302 to it", async (url) => {
    for (const from of [url, via302(url)])
      await expect(readPreloadListSource(from, { ...network, timeoutMs: 5_000 })).rejects.toThrow(
        /a cloud metadata address/,
      );
  });
});

describe("the lab check's traffic guard, with AUDIT_ALLOW_PRIVATE_TARGETS=true", () => {
  let guard: TrafficGuard;
  beforeEach(async () => {
    guard = await startTrafficGuard({
      allowPrivate: true,
      resolve: network.resolve,
      connect: network.connect,
    });
  });
  afterEach(() => guard.close());

  /** What the browser sends the proxy: an absolute-URL GET, or a CONNECT for https. */
  function viaProxy(method: "GET" | "CONNECT", target: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port: guard.port, method, path: target });
      request.on("connect", (response, socket) => {
        socket.destroy();
        resolve({ status: response.statusCode ?? 0, body: "" });
      });
      request.on("response", (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", reject);
      request.end();
    });
  }

  it.each(METADATA_URLS)("refuses %s, plain and tunnelled", async (url) => {
    const plain = await viaProxy("GET", url);
    expect(plain.status).toBe(403);
    expect(plain.body).not.toContain(FAKE_CREDENTIAL);
    // The host as spelt in the URL (2852039166, [::ffff:…], a trailing dot), not normalised.
    const host = /^https?:\/\/([^/]+)/.exec(url)?.[1] ?? "";
    const tunnel = await viaProxy("CONNECT", `${host}:443`);
    expect(tunnel.status).toBe(403);
    expect(guard.blocked.map((entry) => entry.reason)).toEqual([
      expect.stringMatching(REFUSED),
      expect.stringMatching(REFUSED),
    ]);
  });
});

describeEachDatabase("watches, with AUDIT_ALLOW_PRIVATE_TARGETS=true", (use) => {
  const rules = { allowPrivate: true, checks: ["security", "performance"] as const };
  it.each(METADATA_URLS.filter((url) => !url.includes("rebind")))("refuses a watch of %s", async (url) => {
    const input = { url, checks: ["security"], every: "daily", recipients: "a@example.com" };
    const created = await createWatch(use().db, input, "sam", rules);
    expect(created).toMatchObject({ ok: false, status: 400 });
    expect(created.ok ? "" : created.errors.url).toMatch(REFUSED);
  });

  it("still watches a private address the switch allows", async () => {
    const input = {
      url: "http://10.1.2.3/",
      checks: ["security"],
      every: "daily",
      recipients: "a@example.com",
    };
    expect((await createWatch(use().db, input, "sam", rules)).ok).toBe(true);
  });
});

describe("safeFetch, the audits' fetcher", () => {
  it("refuses a redirect to a name that resolves to metadata, at the hop, and reads nothing", async () => {
    const result = await safeFetch(via302("http://rebind.example/latest/meta-data/"), {
      allowPrivate: true,
      ...network,
    });
    expect("error" in result ? result.details : "fetched").toMatch(
      /^Refused: rebind\.example resolves to a cloud metadata address \(169\.254\.169\.254/,
    );
    expect(network.resolve.calls).toEqual(["rebind.example"]);
  });
});
