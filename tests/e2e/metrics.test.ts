import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintExposition } from "../../scripts/lib/prometheus-lint.ts";
import { findPromtool, promtoolCheckMetrics } from "../../scripts/lib/promtool.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";

// GET /metrics and the request log (issue 13): who may read the metrics in each configuration, what
// they tell, and what the log says of each request (and never says).

const TOKEN = "metrics-token-for-the-e2e-test-0123456789";
let dir: string;
const servers: RunningServer[] = [];

async function serverWith(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer({ DATABASE_URL: join(dir, `${servers.length}.sqlite`), ...env });
  servers.push(server);
  return server;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "metrics-e2e-"));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe("without METRICS_TOKEN, on a machine without a proxy", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serverWith({ LEAD_MIN_FILL_SECONDS: "0" });
  }, 90_000);

  it("says at start-up who can read the metrics", () => {
    expect(server.startupOutput).toContain("Metrics: GET /metrics from this machine only");
  });

  it("counts requests by route pattern and status class, and stored leads, for a client on this machine", async () => {
    await fetch(`${server.url}/admin/leads/987654`, { redirect: "manual" });
    // Read to the end: a request is counted once its response has been sent whole.
    await (await fetch(`${server.url}/blog/no-such-article-xyz`)).text();
    const lead = await fetch(`${server.url}/api/demo-request`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        fullName: "Metric Person",
        email: "metric.person@example.com",
        company: "Gauge Builders Ltd",
        phone: "+44 20 7946 0001",
        message: "Counting leads",
      }),
    });
    expect(lead.status).toBe(201);

    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.headers.get("cache-control")).toContain("no-store");
    const text = await response.text();
    expect(text).toMatch(
      /clausebridge_http_request_duration_seconds_count\{[^}]*route="\/admin\/leads\/:id"[^}]*status="3xx"/,
    );
    expect(text).toMatch(
      /clausebridge_http_request_duration_seconds_count\{[^}]*route="\/blog\/:slug"[^}]*status="4xx"/,
    );
    expect(text).toMatch(/clausebridge_leads_stored_total\{[^}]*type="demo"[^}]*via="api"[^}]*\} 1\n/);
    expect(text).toMatch(/clausebridge_spam_verdicts_total\{[^}]*\} 1\n/);
    expect(text).toMatch(/clausebridge_outbox_messages\{status="pending"[^}]*\} 0\n/);
    expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
    // Patterns, never what was requested or sent.
    for (const secret of ["987654", "no-such-article-xyz", "metric.person", "Gauge Builders"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("serves what `promtool check metrics` accepts (promtool's rules always; promtool itself when present)", async () => {
    await (await fetch(`${server.url}/`)).text();
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(lintExposition(text)).toEqual([]);
    const promtool = findPromtool();
    if (!promtool) {
      console.warn(
        "metrics.test.ts: no promtool here (scripts/install-promtool.sh): checked with our linter only",
      );
      return;
    }
    expect(promtoolCheckMetrics(promtool, text)).toEqual({ status: 0, output: "" });
  });

  it("logs one JSON line per page and API request, with its id, and nothing a visitor sent", async () => {
    const page = await fetch(`${server.url}/problem?utm_source=private-query-text`);
    await page.text();
    const api = await fetch(`${server.url}/api/demo-request`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ fullName: "Private Body Name" }),
    });
    await fetch(`${server.url}/assets/not-logged-asset.js`);
    const ids = [page, api].map((response) => response.headers.get("x-request-id") ?? "");
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true);
    type Line = {
      reqId?: string;
      method?: string;
      route?: string;
      status?: number;
      ms?: number;
      msg?: string;
    };
    const lines = () =>
      server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Line);
    // The log is written asynchronously: wait (bounded) for both lines.
    for (let i = 0; i < 50 && ids.some((id) => !lines().some((line) => line.reqId === id)); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const [pageLine, apiLine] = ids.map((id) => lines().find((line) => line.reqId === id));
    expect(pageLine).toMatchObject({ method: "GET", route: "/problem", status: 200, msg: "request" });
    expect(apiLine).toMatchObject({ method: "POST", route: "/api/demo-request", status: 400 });
    expect(typeof pageLine?.ms).toBe("number");
    const requestLines = lines()
      .filter((line) => line.msg === "request")
      .map((line) => JSON.stringify(line));
    for (const secret of ["private-query-text", "Private Body Name", "not-logged-asset", "127.0.0.1"]) {
      expect(requestLines.join("\n")).not.toContain(secret);
    }
  });

  it("refuses a request that came through a proxy, with 401 and WWW-Authenticate", async () => {
    const response = await fetch(`${server.url}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await response.text()).not.toContain("clausebridge_");
  });
});

describe("with METRICS_TOKEN", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serverWith({ METRICS_TOKEN: TOKEN, TRUST_PROXY: "1" });
  }, 90_000);

  it("answers only the bearer of the token, from anywhere", async () => {
    const bearer = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN}`, "X-Forwarded-For": "203.0.113.9" },
    });
    expect(bearer.status).toBe(200);
    expect(await bearer.text()).toContain("clausebridge_http_request_duration_seconds");
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: `Bearer ${TOKEN}x` },
      { Authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of attempts) {
      const refused = await fetch(`${server.url}/metrics`, { headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });
});

describe("behind a proxy without METRICS_TOKEN", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serverWith({ TRUST_PROXY: "1" });
  }, 90_000);

  it("is off, and start-up says how to turn it on", async () => {
    expect(server.startupOutput).toContain("set METRICS_TOKEN to turn it on");
    // Every request arrives from the proxy on loopback here, so loopback proves nothing.
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(404);
  });
});
