import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Registry } from "prom-client";
import { PRIVATE_NO_STORE } from "./cache-control.ts";

// GET /metrics (issue 13): Prometheus text for whoever may read it. With METRICS_TOKEN, a bearer
// token; without one, only a client on this machine talking to us directly; behind a proxy
// (TRUST_PROXY > 0) without a token it is off, since every request then arrives from loopback.

export const METRICS_PATH = "/metrics";

export type MetricsAccess = { kind: "token"; digest: Buffer } | { kind: "loopback" } | { kind: "off" };

const digest = (value: string) => createHash("sha256").update(value).digest();

export function metricsAccess(env: { METRICS_TOKEN?: string; TRUST_PROXY: number }): MetricsAccess {
  if (env.METRICS_TOKEN) return { kind: "token", digest: digest(env.METRICS_TOKEN) };
  return env.TRUST_PROXY > 0 ? { kind: "off" } : { kind: "loopback" };
}

/** The start-up line that says who can read /metrics, or how to turn it on. */
export function describeMetricsAccess(access: MetricsAccess): string {
  switch (access.kind) {
    case "token":
      return "Metrics: GET /metrics with Authorization: Bearer $METRICS_TOKEN.";
    case "loopback":
      return "Metrics: GET /metrics from this machine only (set METRICS_TOKEN to scrape from elsewhere).";
    case "off":
      return "Metrics: /metrics is off behind a proxy (TRUST_PROXY > 0) without a token; set METRICS_TOKEN to turn it on.";
  }
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** Whether this request may read the metrics (the token is compared in constant time). */
export function mayReadMetrics(req: IncomingMessage, access: MetricsAccess): boolean {
  if (access.kind === "off") return false;
  if (access.kind === "loopback") {
    return (
      LOOPBACK.has(req.socket.remoteAddress ?? "") &&
      req.headers["x-forwarded-for"] === undefined &&
      req.headers.forwarded === undefined
    );
  }
  const match = /^Bearer ([^\s]{1,512})$/.exec(req.headers.authorization ?? "");
  return match !== null && timingSafeEqual(digest(match[1] ?? ""), access.digest);
}

export function answerMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  access: MetricsAccess,
  registry: Registry,
  headers: Record<string, string>,
): void {
  const plain = (status: number, text: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, {
      ...headers,
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": PRIVATE_NO_STORE,
      ...extra,
    });
    res.end(`${text}\n`);
  };
  if (access.kind === "off") {
    plain(404, "Not found");
    return;
  }
  if (!mayReadMetrics(req, access)) {
    plain(401, "Unauthorized", { "WWW-Authenticate": 'Bearer realm="metrics"' });
    return;
  }
  registry.metrics().then(
    (text) => {
      res.writeHead(200, {
        ...headers,
        "Content-Type": registry.contentType,
        "Cache-Control": PRIVATE_NO_STORE,
      });
      res.end(req.method === "HEAD" ? undefined : text);
    },
    () => plain(500, "Metrics could not be collected"),
  );
}
