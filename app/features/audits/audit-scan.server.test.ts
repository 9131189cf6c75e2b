import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestCertificates,
  type TestCertificates,
} from "#app/lib/safe-fetch/testing/test-certificates.ts";
import { scanFailure, scanWebsite } from "./audit-scan.server.ts";
import { analyse } from "./observatory/analyse.ts";
import { failureText } from "./observatory/context.ts";
import { allowLoopbackOnly, startTestServer, type TestServer } from "./testing/test-servers.ts";

// The whole security audit against real servers on 127.0.0.1 (private targets allowed for them
// only): fetch over HTTP and HTTPS with a certificate authority made by the test, probe CORS and
// security.txt, then score. Header sets from none at all to what a careful site sends.

const PAGE = `<!doctype html><html><head><title>t</title><script src="/app.js"></script></head><body>ok</body></html>`;

const STRICT_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
};

function page(
  headers: Record<string, string>,
): (request: http.IncomingMessage, response: http.ServerResponse) => void {
  return (request, response) => {
    if (request.url === "/.well-known/security.txt") {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.end("Contact: mailto:security@example.com\nExpires: 2099-01-01T00:00:00.000Z\n");
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ...headers });
    response.end(PAGE);
  };
}

describe("security audit of local servers", () => {
  let certificates: TestCertificates;
  const servers: TestServer[] = [];
  const start = async (...args: Parameters<typeof startTestServer>) => {
    const server = await startTestServer(...args);
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    certificates = await createTestCertificates();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it("grades a site sending no security headers over plain HTTP an F, with actionable issues", async () => {
    const plain = await start("http", page({}));
    const closedHttps = "https://127.0.0.1:1/";
    const scan = await scanWebsite(
      new URL(`${plain.origin}/`),
      { allowPrivate: allowLoopbackOnly, timeoutMs: 3000 },
      { http: `${plain.origin}/`, https: closedHttps },
    );
    const result = analyse(scan);
    expect(result.grade).toBe("F");
    expect(result.score).toBeLessThan(25);
    const ids = result.issues.map((issue) => issue.id);
    expect(ids.some((id) => id.startsWith("csp"))).toBe(true);
    for (const issue of result.issues) {
      expect(issue.title.length).toBeGreaterThan(5);
      expect(["critical", "high", "medium", "low", "info"]).toContain(issue.severity);
    }
    expect(
      result.issues.some((issue) => issue.remediation && /Content-Security-Policy/.test(issue.remediation)),
    ).toBe(true);
  });

  it("grades a site that redirects to HTTPS and sends strict headers an A+", async () => {
    const secure = await start("https", page(STRICT_HEADERS), certificates.valid);
    const redirector = await start("http", (_request, response) => {
      response.writeHead(301, { Location: `${secure.origin}/` });
      response.end();
    });
    const scan = await scanWebsite(
      new URL(`${secure.origin}/`),
      { allowPrivate: allowLoopbackOnly, ca: certificates.ca, timeoutMs: 3000 },
      { http: `${redirector.origin}/`, https: `${secure.origin}/` },
    );
    const result = analyse(scan);
    expect(result.grade).toBe("A+");
    expect(result.score).toBe(100);
    expect(result.uncappedScore).toBeGreaterThanOrEqual(100);
    expect(
      result.issues.filter((issue) => issue.severity === "critical" || issue.severity === "high"),
    ).toEqual([]);
  });

  it("reports an expired certificate as an issue", async () => {
    const expired = await start("https", page(STRICT_HEADERS), certificates.expired);
    const scan = await scanWebsite(
      new URL(`${expired.origin}/`),
      { allowPrivate: allowLoopbackOnly, ca: certificates.ca, timeoutMs: 3000 },
      { http: "http://127.0.0.1:1/", https: `${expired.origin}/` },
    );
    const result = analyse(scan);
    const tls = result.issues.find(
      (issue) => issue.category.toLowerCase().includes("tls") || issue.id.includes("cert"),
    );
    expect(tls?.severity).toMatch(/critical|high/);
  });

  it("judges a cookie that only /robots.txt sets, as the reference does", async () => {
    const handler = page(STRICT_HEADERS);
    const secure = await start(
      "https",
      (request, response) => {
        if (request.url !== "/robots.txt") return handler(request, response);
        response.writeHead(200, { "Content-Type": "text/plain", "Set-Cookie": "sessionid=1; Path=/" });
        response.end("User-agent: *\nAllow: /\n");
      },
      certificates.valid,
    );
    const scan = await scanWebsite(
      new URL(`${secure.origin}/`),
      { allowPrivate: allowLoopbackOnly, ca: certificates.ca, timeoutMs: 3000 },
      { http: "http://127.0.0.1:1/", https: `${secure.origin}/` },
    );
    const cookies = analyse(scan).tests.find((test) => test.name === "cookies");
    // Neither Secure (HSTS covers that) nor HttpOnly, the worse of the two.
    expect(cookies).toMatchObject({ result: "cookies-session-without-httponly-flag", pass: false });
  });

  // Issue 9 point 12: with both schemes failing, the failure of the address typed is reported.
  it("reports the typed https://host:port/ failure, not the port-80 probe's", async () => {
    const plain = await start("http", page({}));
    const typed = new URL(`https://127.0.0.1:${plain.port}/`);
    const scan = await scanWebsite(
      typed,
      { allowPrivate: allowLoopbackOnly, timeoutMs: 3000 },
      // The plain-HTTP probe (port 80 in real life) is refused.
      { http: "http://127.0.0.1:1/", https: typed.href },
    );
    const failure = scanFailure(typed, scan);
    expect(failure?.error).toBe("TLS handshake failed");
    expect(failureText(failure ?? { error: "", details: "" })).toMatch(
      new RegExp(`^TLS handshake failed: 127\\.0\\.0\\.1:${plain.port}: `),
    );
    expect(failureText(failure ?? { error: "", details: "" })).not.toContain("Connection refused");
    // Typed as http://, the HTTP probe's failure is the one to tell.
    expect(scanFailure(new URL("http://127.0.0.1:1/"), scan)?.error).toBe("Connection refused");
  });

  it("reports a refused redirect target once, without 'Refused: Refused:'", async () => {
    const redirector = await start("http", (_request, response) => {
      response.writeHead(302, { Location: "file:///etc/passwd" });
      response.end();
    });
    const typed = new URL(`${redirector.origin}/`);
    const scan = await scanWebsite(
      typed,
      { allowPrivate: allowLoopbackOnly, timeoutMs: 3000 },
      { http: typed.href, https: "https://127.0.0.1:1/" },
    );
    const text = failureText(scanFailure(typed, scan) ?? { error: "", details: "" });
    expect(text).toBe(
      `Refused: file URLs are not audited; only http and https. (redirect from ${typed.href})`,
    );
  });

  // Issue 9 point 12: http://host:port/ redirecting to an HTTPS page the HTTPS probe cannot reach.
  it("grades the HTTPS page an HTTP address redirects to, reading its HSTS, and says what happened", async () => {
    const secure = await start("https", page(STRICT_HEADERS), certificates.valid);
    const redirector = await start("http", (_request, response) => {
      response.writeHead(301, { Location: `${secure.origin}/` });
      response.end();
    });
    const typed = new URL(`${redirector.origin}/`);
    const scan = await scanWebsite(
      typed,
      { allowPrivate: allowLoopbackOnly, ca: certificates.ca, timeoutMs: 3000 },
      { http: typed.href, https: "https://127.0.0.1:1/" },
    );
    expect(scanFailure(typed, scan)).toBeNull();
    const result = analyse(scan);
    const hsts = result.tests.find((test) => test.name === "strict-transport-security");
    expect(hsts).toMatchObject({ result: "hsts-implemented-max-age-at-least-six-months", pass: true });
    const ids = result.issues.map((issue) => issue.id);
    expect(ids).not.toContain("hsts-no-https");
    const note = result.issues.find((issue) => issue.id === "https-only-via-redirect");
    expect(note).toMatchObject({ title: "HTTPS reached only through the HTTP redirect", severity: "low" });
    expect(note?.description).toContain(`redirects to ${secure.origin}/, which answered over HTTPS`);
    expect(result.grade).toBe("A+");
  });
});
