import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTrafficGuard } from "./traffic-guard.server.ts";

// The guard's keep-alive pool (issue 25): a page's requests to one host reuse one checked upstream
// connection, a connection is never lent to another host (even one resolving to the same address),
// the policy's first answer for a host holds for the run (refused stays refused; an approved name
// that later resolves inward is still connected to its approved address), and the limits still count.

describe("the traffic guard's upstream pool", () => {
  // Each request reports the upstream connection it came on (its client port) and the Host it named.
  // With `dropReused`, a connection's second request is answered by closing it, as a server whose
  // keep-alive timeout ran out just as the guard reused the connection.
  let dropReused = false;
  const served = new WeakMap<object, number>();
  const target = http.createServer((request, response) => {
    const count = (served.get(request.socket) ?? 0) + 1;
    served.set(request.socket, count);
    if (dropReused && count > 1) {
      request.socket.destroy();
      return;
    }
    response.end(
      JSON.stringify({ via: request.socket.remotePort, host: request.headers.host, method: request.method }),
    );
  });
  let accepted = 0;
  target.on("connection", () => {
    accepted += 1;
  });
  let port = 0;
  const dns = new Map<string, string>();
  const lookups: string[] = [];
  const resolve = async (hostname: string) => {
    lookups.push(hostname);
    const address = dns.get(hostname);
    if (!address) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return [{ address, family: 4 }];
  };

  beforeAll(async () => {
    await new Promise<void>((done) => target.listen(0, "127.0.0.2", done));
    port = (target.address() as AddressInfo).port;
  });
  afterAll(async () => {
    target.closeAllConnections();
    await new Promise((done) => target.close(done));
  });

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const viaProxy = (proxyPort: number, url: string, method = "GET") =>
    new Promise<{ status: number; body: string }>((done, fail) => {
      http
        // As a browser does: the absolute URL, and the target's name in Host.
        .request(
          {
            host: "127.0.0.1",
            port: proxyPort,
            path: url,
            method,
            agent,
            headers: { host: new URL(url).host },
          },
          (response) => {
            let body = "";
            response.setEncoding("utf8");
            response.on("data", (chunk) => {
              body += chunk;
            });
            response.on("end", () => done({ status: response.statusCode ?? 0, body }));
          },
        )
        .on("error", fail)
        .end(method === "POST" ? "a=1" : undefined);
    });

  it("reuses one connection per host, never across hosts, and keeps the first verdict per host", async () => {
    dns.clear();
    lookups.length = 0;
    dns.set("a.test", "127.0.0.2");
    dns.set("b.test", "127.0.0.2");
    dns.set("evil.test", "127.0.0.1");
    const guard = await startTrafficGuard({
      allowPrivate: (address) => address === "127.0.0.2",
      resolve,
    });
    try {
      accepted = 0;
      const first = await viaProxy(guard.port, `http://a.test:${port}/one`);
      const second = await viaProxy(guard.port, `http://a.test:${port}/two`);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      const a1 = JSON.parse(first.body);
      const a2 = JSON.parse(second.body);
      expect(a1.host).toBe(`a.test:${port}`);
      expect(a2.via).toBe(a1.via);
      expect(accepted).toBe(1);

      // Same address, other host: its own connection, never a.test's.
      const other = JSON.parse((await viaProxy(guard.port, `http://b.test:${port}/`)).body);
      expect(other.host).toBe(`b.test:${port}`);
      expect(other.via).not.toBe(a1.via);
      expect(accepted).toBe(2);

      // Refused, and still refused after the name starts pointing at an allowed address.
      expect((await viaProxy(guard.port, `http://evil.test:${port}/`)).status).toBe(403);
      dns.set("evil.test", "127.0.0.2");
      expect((await viaProxy(guard.port, `http://evil.test:${port}/again`)).status).toBe(403);
      expect(guard.blocked.map((entry) => entry.url)).toEqual([
        `http://evil.test:${port}/`,
        `http://evil.test:${port}/again`,
      ]);

      // a.test now resolves inward (a rebinding answer): never asked, its approved address is kept.
      dns.set("a.test", "127.0.0.1");
      const pinned = await viaProxy(guard.port, `http://a.test:${port}/three`);
      expect(pinned.status).toBe(200);
      expect(JSON.parse(pinned.body).via).toBe(a1.via);
      expect(lookups.filter((name) => name === "a.test")).toEqual(["a.test"]);
      expect(accepted).toBe(2);
      expect(guard.stats.upstreamSockets).toBe(2);
    } finally {
      await guard.close();
    }
  });

  it("sends a GET once more on a fresh connection when the target closed the reused one, but never a POST", async () => {
    dns.clear();
    dns.set("a.test", "127.0.0.2");
    const guard = await startTrafficGuard({ allowPrivate: (address) => address === "127.0.0.2", resolve });
    try {
      dropReused = true;
      accepted = 0;
      const first = await viaProxy(guard.port, `http://a.test:${port}/first`);
      expect(first.status).toBe(200);
      // The pooled connection is dropped under this GET: the browser still gets the page, from a
      // second connection.
      const again = await viaProxy(guard.port, `http://a.test:${port}/again`);
      expect(again.status).toBe(200);
      expect(JSON.parse(again.body).via).not.toBe(JSON.parse(first.body).via);
      expect(accepted).toBe(2);
      // A POST may have had its effect before the connection went: it fails as a dropped
      // connection does (502), and is not sent twice.
      const post = await viaProxy(guard.port, `http://a.test:${port}/form`, "POST");
      expect(post.status).toBe(502);
      expect(accepted).toBe(2);
    } finally {
      dropReused = false;
      await guard.close();
    }
  });

  it("still counts every request against the connection limit, pooled or not", async () => {
    dns.clear();
    dns.set("a.test", "127.0.0.2");
    const guard = await startTrafficGuard({
      allowPrivate: (address) => address === "127.0.0.2",
      resolve,
      limits: { maxConnections: 2 },
    });
    try {
      expect((await viaProxy(guard.port, `http://a.test:${port}/1`)).status).toBe(200);
      expect((await viaProxy(guard.port, `http://a.test:${port}/2`)).status).toBe(200);
      const third = await viaProxy(guard.port, `http://a.test:${port}/3`);
      expect(third.status).toBe(403);
      expect(third.body).toMatch(/more than 2 connections/);
      expect(guard.stats.upstreamSockets).toBe(1);
    } finally {
      await guard.close();
      agent.destroy();
    }
  });
});
