import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./support/browser.ts";

// What every client sees on the wire: headers, caching and compression, without a browser.

function scriptSrc(csp: string | null): string {
  return (csp ?? "").split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
}

async function get(path: string, headers: Record<string, string> = {}) {
  return fetch(new URL(path, baseUrl), { headers, redirect: "manual" });
}

describe("security headers", () => {
  it.each(["/", "/blog", "/assets/does-not-exist.js", "/no-such-page", "/robots.txt"])(
    "are sent on %s",
    async (path) => {
      const response = await get(path);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("permissions-policy")).toContain("camera=()");
      expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(response.headers.get("x-powered-by")).toBeNull();
      // Plain HTTP on loopback: no HSTS unless configured.
      expect(response.headers.get("strict-transport-security")).toBeNull();
    },
  );

  /** The executable inline scripts of a document (JSON-LD data blocks are not scripts). */
  const inlineScripts = (html: string) =>
    [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(
        ([, attributes = "", body = ""]) =>
          !/\bsrc=/.test(attributes) && !/application\/ld\+json/.test(attributes) && body.trim(),
      )
      .map(([, , body = ""]) => body);

  /** The files an inline loader imports, in order. */
  const importsOf = (loader = "") => [...loader.matchAll(/import\("([^"]+)"\)/g)].map((m) => m[1]);
  const ENHANCE = expect.stringMatching(/^\/assets\/enhance-[\w-]+\.js$/);

  it.each([
    ["/problem", [ENHANCE]],
    ["/", [ENHANCE, expect.stringMatching(/^\/assets\/demo-request-form-[\w-]+\.js$/)]],
    ["/invest", [ENHANCE, expect.stringMatching(/^\/assets\/investor-interest-form-[\w-]+\.js$/)]],
  ])(
    "%s runs one inline script, the loader of its own files, allowed by its hash alone (ADR 013)",
    async (path, files) => {
      const response = await get(path);
      const csp = response.headers.get("content-security-policy") ?? "";
      const [loader, ...others] = inlineScripts(await response.text());
      expect(others, path).toEqual([]);
      // It imports files of this site only, once the page has painted.
      expect(importsOf(loader), path).toEqual(files);
      expect(loader).toContain("first-contentful-paint");
      const hash = `'sha256-${createHash("sha256")
        .update(loader ?? "")
        .digest("base64")}'`;
      expect(scriptSrc(csp).trim(), path).toBe(`script-src 'self' ${hash}`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
    },
  );

  it("a public page rendered per request names its loader by the response's nonce", async () => {
    const response = await get("/no-such-page");
    const csp = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(scriptSrc(csp)).not.toMatch(/'sha256-|unsafe-inline|unsafe-eval/);
    const html = await response.text();
    expect(inlineScripts(html)).toHaveLength(1);
    expect(html).toContain(`<script type="module" nonce="${nonce}">`);
  });

  it("server-rendered pages carry a fresh nonce on every response", async () => {
    const first = (await get("/admin/login")).headers.get("content-security-policy") ?? "";
    const second = (await get("/admin/login")).headers.get("content-security-policy") ?? "";
    const nonce = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce(first)).toBeTruthy();
    expect(nonce(first)).not.toBe(nonce(second));
    expect(scriptSrc(first)).not.toContain("unsafe-inline");
    // The back office is hydrated by React Router, whose inline scripts carry the nonce.
    const html = await (await get("/admin/login")).text();
    expect(html).toMatch(/<script[^>]* nonce="[^"]+"/);
  });

  it("sends HSTS when a trusted proxy says the request came over HTTPS", async () => {
    // The test server trusts no proxy, so a forged header changes nothing.
    const response = await get("/", { "X-Forwarded-Proto": "https" });
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("caching and compression", () => {
  it("serves hashed assets immutable for a year, precompressed", async () => {
    const html = await (await get("/")).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const br = await get(asset as string, { "Accept-Encoding": "br, gzip" });
    expect(br.status).toBe(200);
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(br.headers.get("content-encoding")).toBe("br");
    const gzip = await get(asset as string, { "Accept-Encoding": "gzip" });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const plain = await get(asset as string, { "Accept-Encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect((await plain.text()).length).toBeGreaterThan(0);
  });

  it("revalidates HTML with an ETag and answers 304 when unchanged", async () => {
    const first = await get("/problem", { "Accept-Encoding": "br" });
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(first.headers.get("vary")).toBe("Accept-Encoding");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const second = await get("/problem", { "If-None-Match": etag as string });
    expect(second.status).toBe(304);
  });

  it("compresses dynamic responses on the fly", async () => {
    const response = await get("/no-such-page", { "Accept-Encoding": "gzip" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("redirects a trailing slash to the canonical URL", async () => {
    const response = await get("/problem/?ref=x");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/problem?ref=x");
  });

  it("answers 404 for a missing hashed asset without rendering a page", async () => {
    const response = await get("/assets/missing-abc123.js");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("text/plain");
  });
});

describe("health checks for load balancers (issue 13)", () => {
  it("/healthz says the process is alive, uncached, and HEAD works too", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok\n");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const head = await fetch(new URL("/healthz", baseUrl), { method: "HEAD" });
    expect(head.status).toBe(200);
  });

  it("/readyz says ready when the database answers and is migrated", async () => {
    const response = await get("/readyz");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ready\n");
    expect(response.headers.get("cache-control")).toContain("no-store");
  });

  it("refuses other methods on the health paths", async () => {
    const response = await fetch(new URL("/readyz", baseUrl), { method: "DELETE" });
    expect(response.status).toBe(405);
  });
});

describe("a keep-alive connection after a body nobody read", () => {
  // A proxy (nginx) sends many requests over one connection to the app. A page that answers before
  // reading the body (a signed-out caller sent to sign in) must leave the connection ready for the
  // next request, however large the body was within its route's limit (the post editor takes 1 MB).
  it("answers the next request on the same connection", async () => {
    const { request, Agent } = await import("node:http");
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(baseUrl);
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const outgoing = request(
          {
            host: url.hostname,
            port: url.port,
            method,
            path,
            agent,
            headers: body
              ? {
                  "Content-Type": "application/x-www-form-urlencoded",
                  "Content-Length": String(Buffer.byteLength(body)),
                }
              : {},
          },
          (response) => {
            response.resume();
            response.on("end", () => resolve({ status: response.statusCode ?? 0, socket: outgoing.socket }));
          },
        );
        outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`${method} ${path} timed out`)));
        outgoing.on("error", reject);
        outgoing.end(body);
      });
    try {
      const body = new URLSearchParams({ intent: "save", body: "—".repeat(60_000) }).toString();
      expect(body.length).toBeGreaterThan(500_000);
      const first = await send("POST", "/admin/content/new", body);
      expect(first.status).toBe(302);
      const second = await send("GET", "/healthz");
      expect(second.status).toBe(200);
      // The same connection carried both.
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });
});

describe("a connection whose body was refused unread", () => {
  // A client declares a body over the route's limit and keeps sending: it reads the refusal, then
  // the server ends the connection (it once stayed open, the client's writes blocked once the
  // buffers filled, and a request sent next on it got no answer).
  it.each([
    ["/api/demo-request", 413],
    ["/api/admin/media", 401],
    ["/admin/login", 415],
  ])("%s: the answer, then the end of the connection", async (path, status) => {
    const { connect } = await import("node:net");
    const url = new URL(baseUrl);
    const declared = 20 * 1024 * 1024;
    const outcome = await new Promise<{ answer: string; ended: boolean; sent: number }>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      let answer = "";
      let ended = false;
      let sent = 0;
      socket.on("data", (data) => {
        answer += data.toString("latin1");
      });
      socket.on("end", () => {
        ended = true;
      });
      socket.on("error", () => {});
      socket.on("close", () => resolve({ answer, ended, sent }));
      // Not ended by the server: the test's time-out, not a hang.
      const giveUp = setTimeout(() => socket.destroy(), 20_000);
      socket.once("close", () => clearTimeout(giveUp));
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * 1024, "x");
      const pump = () => {
        while (sent < declared && !socket.destroyed && !ended) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
      };
      pump();
    });
    expect(outcome.answer.split("\r\n")[0]).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    // The server said it was done (FIN), before the client had sent the 20 MB it declared.
    expect(outcome.ended).toBe(true);
    expect(outcome.sent).toBeLessThan(declared);
  });
});
