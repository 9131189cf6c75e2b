import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeNetwork } from "#app/lib/safe-fetch/testing/fake-network.ts";
import {
  createTestCertificates,
  type TestCertificates,
} from "#app/lib/safe-fetch/testing/test-certificates.ts";
import type { FetchChain, FetchFailure } from "./audit-types.ts";
import { DEFAULT_TIMEOUT_MS, header, type Resolver, safeFetch, USER_AGENT } from "./safe-fetch.server.ts";
import { allowLoopbackOnly, type Handler, startTestServer, type TestServer } from "./testing/test-servers.ts";

const servers: TestServer[] = [];
async function serve(handler: Handler, kind: "http" | "https" | "http2" = "http", certificate?: object) {
  const server = await startTestServer(kind, handler, certificate as { key: string; cert: string });
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

function chain(result: FetchChain | FetchFailure): FetchChain {
  if ("error" in result) throw new Error(`expected a response, got ${result.error}: ${result.details}`);
  return result;
}
function failure(result: FetchChain | FetchFailure): FetchFailure {
  if (!("error" in result)) throw new Error(`expected a failure, got ${result.final.status}`);
  return result;
}

/** A resolver that answers from a table, so no test depends on real DNS. */
function table(entries: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = entries[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

describe("safeFetch refuses non-public targets by default", () => {
  it.each([
    ["http://127.0.0.1/", /127\.0\.0\.1 is a loopback address \(127\.0\.0\.0\/8\)/],
    ["http://[::1]/", /::1 is a loopback address/],
    ["http://0.0.0.0/", /0\.0\.0\.0 is an unspecified/],

    ["http://10.1.2.3/", /10\.1\.2\.3 is a private address \(10\.0\.0\.0\/8\)/],
    ["http://172.16.5.4/", /172\.16\.5\.4 is a private address \(172\.16\.0\.0\/12\)/],
    ["http://192.168.0.1/", /192\.168\.0\.1 is a private address \(192\.168\.0\.0\/16\)/],
    ["http://100.64.1.1/", /carrier-grade NAT/],
    ["http://2130706433/", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f.0.0.1/", /127\.0\.0\.1 is a loopback/],
    ["http://0177.0.0.1/", /127\.0\.0\.1 is a loopback/],
    ["http://017700000001/", /127\.0\.0\.1 is a loopback/],
    ["http://[::ffff:127.0.0.1]/", /::ffff:7f00:1 is an IPv4-mapped IPv6 address/],
    ["http://[::ffff:10.0.0.1]/", /IPv4-mapped/],
  ])("%s", async (url, details) => {
    const result = failure(await safeFetch(url));
    expect(result.error).toBe("Refused");
    expect(result.details).toMatch(details);
    expect(result.details).toMatch(/set AUDIT_ALLOW_PRIVATE_TARGETS=true for an intranet deployment/);
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", /^Refused: 169\.254\.169\.254 is a cloud metadata address/],
    ["http://[::ffff:a9fe:a9fe]/", /^Refused: ::ffff:a9fe:a9fe is a cloud metadata address/],
    ["http://[fd00:ec2::254]/", /^Refused: fd00:ec2::254 is a cloud metadata address/],
    ["http://[fe80::1]/", /^Refused: fe80::1 is a cloud metadata address \(link-local/],
  ])("%s, as cloud metadata that no switch allows", async (url, details) => {
    // The injected network: even code without the policy would reach only a loopback stand-in.
    const network = await startFakeNetwork();
    for (const allowPrivate of [false, true]) {
      const result = failure(await safeFetch(url, { allowPrivate, ...network }));
      expect(result.error).toBe("Refused");
      expect(result.details).toMatch(details);
      expect(result.details).toMatch(
        /cloud metadata is never reached, whatever AUDIT_ALLOW_PRIVATE_TARGETS says\.$/,
      );
    }
    expect(network.attempts).toEqual([]);
    await network.close();
  });

  it("refuses localhost through the system resolver", async () => {
    const result = failure(await safeFetch("http://localhost/"));
    expect(result.error).toBe("Refused");
    expect(result.details).toMatch(/^Refused: localhost resolves to a loopback address/);
  });

  it("refuses a public-looking name that resolves to a private address", async () => {
    const resolve = table({ "public.example": ["10.0.0.1"] });
    const result = failure(await safeFetch("https://public.example/", { resolve }));
    expect(result).toEqual({
      error: "Refused",
      details:
        "Refused: public.example resolves to a private address (10.0.0.0/8). Audits only reach " +
        "public websites; set AUDIT_ALLOW_PRIVATE_TARGETS=true for an intranet deployment.",
    });
  });

  it("refuses a name when any of its addresses is private, not just the first", async () => {
    const resolve = table({ "mixed.example": ["93.184.215.14", "2606:4700::1111", "192.168.1.10"] });
    const result = failure(await safeFetch("http://mixed.example/", { resolve }));
    expect(result.details).toMatch(/mixed\.example resolves to a private address \(192\.168\.0\.0\/16\)/);
  });

  it("refuses other schemes and credentials before any lookup", async () => {
    const resolve = table({});
    expect(failure(await safeFetch("ftp://example.com/", { resolve })).error).toBe("Refused");
    expect(failure(await safeFetch("https://a:b@example.com/", { resolve })).details).toMatch(/password/);
    expect(resolve.calls).toEqual([]);
  });

  it("reports a name that does not resolve", async () => {
    const result = failure(await safeFetch("https://missing.example/", { resolve: table({}) }));
    expect(result).toEqual({
      error: "DNS lookup failed",
      details: "No address found for missing.example (ENOTFOUND).",
    });
  });
});

describe("safeFetch redirects", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve((request, response) => {
      const url = new URL(request.url ?? "/", "http://x");
      const hop = Number(url.searchParams.get("hop") ?? 0);
      if (url.pathname === "/to") {
        response.writeHead(302, { location: url.searchParams.get("target") ?? "/" }).end("moved");
      } else if (url.pathname === "/loop") {
        const left = Number(url.searchParams.get("left"));
        response
          .writeHead(301, { location: left > 0 ? `/loop?left=${left - 1}&hop=${hop + 1}` : "/done" })
          .end();
      } else if (url.pathname === "/see-other") {
        response.writeHead(303, { location: "/done" }).end();
      } else {
        response.writeHead(200, { "content-type": "text/plain" }).end(`${request.method} done`);
      }
    });
  });

  it.each([
    "http://10.0.0.1/",
    "http://169.254.169.254/latest/meta-data/iam/",
    "http://[::1]/",
    // 169.254.169.254 spelt in hex: normalised by the URL parser before the check.
    "http://0xA9FEA9FE/",
  ])("refuses a redirect from an allowed server to %s", async (target) => {
    const url = `${server.origin}/to?target=${encodeURIComponent(target)}`;
    const result = failure(await safeFetch(url, { allowPrivate: allowLoopbackOnly }));
    expect(result.error).toBe("Refused");
    expect(result.details).toMatch(/^Refused: .* is a (private|cloud metadata|loopback|link-local)/);
    // "(after … → 302)" when refused at the lookup, "(redirect from …)" when refused as written.
    expect(result.details).toContain(url);
  });

  it("refuses a redirect to a name that resolves inward, and to another scheme", async () => {
    const resolve = table({ "innocent.example": ["192.168.10.20"] });
    const toName = `${server.origin}/to?target=${encodeURIComponent("http://innocent.example/admin")}`;
    expect(failure(await safeFetch(toName, { allowPrivate: allowLoopbackOnly, resolve })).details).toMatch(
      /innocent\.example resolves to a private address/,
    );
    const toFile = `${server.origin}/to?target=${encodeURIComponent("file:///etc/passwd")}`;
    expect(failure(await safeFetch(toFile, { allowPrivate: allowLoopbackOnly })).details).toMatch(
      /only http and https\. \(redirect from/,
    );
  });

  it("follows redirects one hop at a time and keeps the chain", async () => {
    const result = chain(
      await safeFetch(`${server.origin}/loop?left=2`, { allowPrivate: allowLoopbackOnly }),
    );
    expect(result.hops.map((hop) => [hop.url.replace(server.origin, ""), hop.status])).toEqual([
      ["/loop?left=2", 301],
      ["/loop?left=1&hop=1", 301],
      ["/loop?left=0&hop=2", 301],
      ["/done", 200],
    ]);
    expect(result.final).toBe(result.hops[3]);
    expect(result.hops[0]?.body).toBe("");
    expect(result.final.body).toBe("GET done");
  });

  it("allows 10 redirects and fails on the 11th", async () => {
    const ten = chain(await safeFetch(`${server.origin}/loop?left=9`, { allowPrivate: true }));
    expect(ten.hops).toHaveLength(11);
    const eleven = failure(await safeFetch(`${server.origin}/loop?left=10`, { allowPrivate: true }));
    expect(eleven.error).toBe("Too many redirects");
    expect(eleven.details).toMatch(/^More than 10 redirects: .*loop\?left=10 → 301, /);
  });

  it("answers the redirect itself with maxRedirects 0", async () => {
    const result = chain(
      await safeFetch(`${server.origin}/loop?left=1`, { allowPrivate: true, maxRedirects: 0 }),
    );
    expect(result.hops).toHaveLength(1);
    expect(result.final.status).toBe(301);
  });

  it("turns the request into a GET after a 303", async () => {
    const result = chain(
      await safeFetch(`${server.origin}/see-other`, { method: "OPTIONS", allowPrivate: true }),
    );
    expect(result.final.body).toBe("GET done");
  });
});

describe("safeFetch over HTTP", () => {
  it("connects to the checked address without a second lookup (no DNS rebinding)", async () => {
    const server = await serve((request, response) => response.end(`host=${request.headers.host}`));
    // A rebinding resolver: harmless the first time, internal afterwards.
    let answers = 0;
    const resolve: Resolver = async () => [
      { address: answers++ === 0 ? "127.0.0.1" : "10.0.0.1", family: 4 },
    ];
    const result = chain(
      await safeFetch(`http://rebind.example:${server.port}/`, { resolve, allowPrivate: allowLoopbackOnly }),
    );
    expect(answers).toBe(1);
    expect(result.final.remoteAddress).toBe("127.0.0.1");
    expect(result.final.body).toBe(`host=rebind.example:${server.port}`);
    expect(result.final.timings.dnsMs).toEqual(expect.any(Number));
  });

  it("falls back to the next checked address when one does not accept", async () => {
    const server = await serve((_request, response) => response.end("up"));
    // 127.0.0.2 is loopback too but nothing listens there on this port: refused, then 127.0.0.1.
    const resolve = table({ "two.example": ["127.0.0.2", "127.0.0.1"] });
    const result = chain(
      await safeFetch(`http://two.example:${server.port}/`, { resolve, allowPrivate: true }),
    );
    expect(result.final.remoteAddress).toBe("127.0.0.1");
    expect(result.final.body).toBe("up");
  });

  it("records status, headers in order, timings and sizes; sends our headers", async () => {
    const server = await serve((request, response) => {
      response.setHeader("set-cookie", ["a=1", "b=2"]);
      response.writeHead(201, { server: "test/1.0", "x-seen-ua": request.headers["user-agent"] ?? "" });
      response.end(JSON.stringify({ origin: request.headers.origin, method: request.method }));
    });
    const result = chain(
      await safeFetch(`${server.origin}/path?q=1`, {
        allowPrivate: true,
        method: "OPTIONS",
        headers: { Origin: "https://foreign.example" },
      }),
    );
    const { final } = result;
    expect(final.url).toBe(`${server.origin}/path?q=1`);
    expect(final.status).toBe(201);
    expect(final.httpVersion).toBe("1.1");
    expect(final.tls).toBeUndefined();
    expect(final.headers.filter(([name]) => name === "set-cookie")).toEqual([
      ["set-cookie", "a=1"],
      ["set-cookie", "b=2"],
    ]);
    expect(header(final.headers, "x-seen-ua")).toBe(USER_AGENT);
    expect(JSON.parse(final.body)).toEqual({ origin: "https://foreign.example", method: "OPTIONS" });
    expect(final.encoding).toBe("identity");
    expect(final.transferredBytes).toBe(final.decodedBytes);
    expect(final.timings).toMatchObject({ dnsMs: null, tlsMs: null });
    expect(final.timings.connectMs).toBeGreaterThanOrEqual(0);
    expect(final.timings.totalMs).toBeGreaterThanOrEqual(final.timings.ttfbMs);
  });

  it("sends HEAD without reading a body", async () => {
    const server = await serve((_request, response) =>
      response.writeHead(200, { "content-length": "5" }).end("hello"),
    );
    const result = chain(await safeFetch(server.origin, { method: "HEAD", allowPrivate: true }));
    expect(result.final).toMatchObject({ status: 200, body: "", decodedBytes: 0 });
  });

  it("times out a server that never answers", async () => {
    const server = await serve(() => {});
    const started = performance.now();
    const result = failure(await safeFetch(server.origin, { allowPrivate: true, timeoutMs: 400 }));
    expect(result).toEqual({
      error: "Timed out after 0.4 s",
      details: `127.0.0.1:${server.port} did not answer completely within 0.4 s.`,
    });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("times out a body that trickles forever", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write("x"), 20);
      response.on("close", () => clearInterval(timer));
    });
    const result = failure(await safeFetch(server.origin, { allowPrivate: true, timeoutMs: 300 }));
    expect(result.error).toBe("Timed out after 0.3 s");
  });

  it("stops when the caller cancels (the default limit is 10 s)", async () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    const server = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = failure(await safeFetch(server.origin, { allowPrivate: true, signal: controller.signal }));
    expect(result.error).toBe("Cancelled");
  });

  it("cuts the body at the size limit", async () => {
    const server = await serve((_request, response) => response.end("a".repeat(100_000)));
    const result = chain(await safeFetch(server.origin, { allowPrivate: true, maxBodyBytes: 10_000 }));
    expect(result.final.bodyTruncated).toBe(true);
    expect(result.final.body).toHaveLength(10_000);
    expect(result.final.decodedBytes).toBe(10_000);
  });

  it("cuts a decompression bomb at the limit of decoded bytes", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(50_000_000));
    const server = await serve((_request, response) =>
      response.writeHead(200, { "content-encoding": "gzip" }).end(bomb),
    );
    const result = chain(await safeFetch(server.origin, { allowPrivate: true }));
    expect(result.final.bodyTruncated).toBe(true);
    expect(result.final.decodedBytes).toBe(2 * 1024 * 1024);
    expect(result.final.transferredBytes).toBeLessThanOrEqual(bomb.length);
  });

  const page = `<!doctype html><title>Compressed</title>${"<p>Clausebridge audit body text.</p>".repeat(500)}`;
  it.each([
    ["br", zlib.brotliCompressSync(page)],
    ["gzip", zlib.gzipSync(page)],
    ["zstd", zlib.zstdCompressSync(page)],
    ["deflate", zlib.deflateSync(page)],
    ["identity", Buffer.from(page)],
  ])("decodes %s and counts bytes on the wire and decoded", async (encoding, wire) => {
    const server = await serve((request, response) => {
      expect(request.headers["accept-encoding"]).toBe("br, gzip, zstd, deflate");
      response.writeHead(200, encoding === "identity" ? {} : { "content-encoding": encoding }).end(wire);
    });
    const { final } = chain(await safeFetch(server.origin, { allowPrivate: true }));
    expect(final.encoding).toBe(encoding);
    expect(final.body).toBe(page);
    expect(final.decodedBytes).toBe(Buffer.byteLength(page));
    expect(final.transferredBytes).toBe(wire.length);
  });

  it("reports a corrupt compressed body", async () => {
    const server = await serve((_request, response) =>
      response.writeHead(200, { "content-encoding": "gzip" }).end("not gzip at all"),
    );
    const result = failure(await safeFetch(server.origin, { allowPrivate: true }));
    expect(result.error).toBe("Could not decode the response");
  });

  // Issue 9 point 12: Node's 16 KB default made long header sets "something that is not HTTP".
  it("accepts response headers up to 64 KB, and says when they are larger", async () => {
    const big = await serve((request, response) => {
      const size = request.url === "/huge" ? 70 * 1024 : 60 * 1024;
      response.writeHead(200, { "Content-Type": "text/plain", "X-Padding": "p".repeat(size) });
      response.end("ok");
    });
    const accepted = chain(await safeFetch(`${big.origin}/`, { allowPrivate: allowLoopbackOnly }));
    expect(header(accepted.final.headers, "x-padding")?.length).toBe(60 * 1024);
    expect(failure(await safeFetch(`${big.origin}/huge`, { allowPrivate: allowLoopbackOnly }))).toEqual({
      error: "Headers too large",
      details: `127.0.0.1:${big.port} sent response headers larger than 64 KB, more than the audit accepts.`,
    });
  });

  it("reports a refused connection", async () => {
    const server = await serve(() => {});
    await server.close();
    const result = failure(await safeFetch(server.origin, { allowPrivate: true }));
    expect(result.error).toBe("Connection refused");
    expect(result.details).toMatch(/^127\.0\.0\.1:\d+ refused the connection/);
  });

  it("decodes the body in the declared charset", async () => {
    const server = await serve((_request, response) =>
      response
        .writeHead(200, { "content-type": "text/html; charset=ISO-8859-1" })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9])),
    );
    expect(chain(await safeFetch(server.origin, { allowPrivate: true })).final.body).toBe("café");
  });
});

describe("safeFetch over HTTPS", () => {
  let certificates: TestCertificates;
  beforeAll(async () => {
    certificates = await createTestCertificates();
  });
  const hello: Handler = (request, response) => {
    response.writeHead(200, { "content-type": "text/plain" }).end(`hello over ${request.httpVersion}`);
  };
  const resolve = table({ localhost: ["127.0.0.1"] });

  it("reports a trusted certificate and the TLS details", async () => {
    const server = await serve(hello, "https", certificates.valid);
    const url = `https://localhost:${server.port}/`;
    const { final } = chain(await safeFetch(url, { allowPrivate: true, ca: certificates.ca, resolve }));
    expect(final.body).toBe("hello over 1.1");
    expect(final.httpVersion).toBe("1.1");
    expect(final.tls).toMatchObject({
      protocol: "TLSv1.3",
      cipher: expect.stringMatching(/^TLS_/),
      alpnProtocol: "http/1.1",
      authorized: true,
      authorizationError: null,
      subject: "CN=localhost",
      issuer: "CN=Clausebridge Test CA",
      validTo: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(final.tls?.daysRemaining).toBeGreaterThanOrEqual(0);
    expect(final.timings.tlsMs).toBeGreaterThanOrEqual(0);
  });

  it("still fetches, but reports, an untrusted certificate", async () => {
    const server = await serve(hello, "https", certificates.valid);
    const { final } = chain(
      await safeFetch(`https://localhost:${server.port}/`, { allowPrivate: true, resolve }),
    );
    expect(final.status).toBe(200);
    expect(final.tls).toMatchObject({
      authorized: false,
      authorizationError: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
    });
  });

  it("reports a certificate for another name", async () => {
    const server = await serve(hello, "https", certificates.valid);
    const other = table({ "www.other.example": ["127.0.0.1"] });
    const url = `https://www.other.example:${server.port}/`;
    const { final } = chain(
      await safeFetch(url, { allowPrivate: true, ca: certificates.ca, resolve: other }),
    );
    expect(final.tls).toMatchObject({
      authorized: false,
      authorizationError: "ERR_TLS_CERT_ALTNAME_INVALID",
    });
  });

  it("reports an expired certificate with negative days remaining", async () => {
    const server = await serve(hello, "https", certificates.expired);
    const url = `https://localhost:${server.port}/`;
    const { final } = chain(await safeFetch(url, { allowPrivate: true, ca: certificates.ca, resolve }));
    expect(final.tls).toMatchObject({
      authorized: false,
      authorizationError: "CERT_HAS_EXPIRED",
      validTo: "2021-01-01T00:00:00.000Z",
    });
    expect(final.tls?.daysRemaining).toBeLessThan(0);
  });

  it("uses HTTP/2 when the server offers it by ALPN", async () => {
    const server = await serve(
      (request, response) => {
        response.setHeader("set-cookie", ["a=1", "b=2"]);
        response.writeHead(200, { "content-encoding": "gzip" });
        response.end(zlib.gzipSync(`hello over ${request.httpVersion}`));
      },
      "http2",
      certificates.valid,
    );
    const url = `https://localhost:${server.port}/`;
    const { final } = chain(await safeFetch(url, { allowPrivate: true, ca: certificates.ca, resolve }));
    expect(final.tls?.alpnProtocol).toBe("h2");
    expect(final.httpVersion).toBe("2");
    expect(final.body).toBe("hello over 2.0");
    expect(final.encoding).toBe("gzip");
    expect(final.headers.filter(([name]) => name === "set-cookie")).toHaveLength(2);
    expect(final.headers.some(([name]) => name.startsWith(":"))).toBe(false);
  });

  it("fails the TLS handshake against a plain HTTP server", async () => {
    const server = await serve(hello);
    const result = failure(await safeFetch(`https://127.0.0.1:${server.port}/`, { allowPrivate: true }));
    expect(result.error).toBe("TLS handshake failed");
    expect(result.details).toMatch(/^127\.0\.0\.1:\d+: /);
  });
});
