import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { withDeadline } from "./with-deadline.ts";

// The app's Prometheus metrics (issue 13), served at GET /metrics by server/metrics-endpoint.ts.
// One registry for the process, created with the build: features count what they do here
// (`metrics.leadsStored.inc()`), and the server reads the registry through the services, so the
// instruments and the endpoint share one copy of this module. Labels are small fixed sets (a route
// pattern, a status class, a verdict): never a path, an address, a name or anything a visitor types.

export const registry = new Registry();
registry.setDefaultLabels({ app: "clausebridge" });
// Process CPU, memory, handles, garbage collection and event-loop lag (nodejs_eventloop_lag_*).
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
// prom-client names three of its gauges like counters (nodejs_active_handles_total, _requests_total,
// _resources_total), which `promtool check metrics` rejects (issue 22). Each is the sum of the gauge
// of the same name without `_total`, by `type` (sum(nodejs_active_handles)), so they are dropped.
for (const metric of registry.getMetricsAsArray()) {
  if (metric instanceof Gauge && metric.name.endsWith("_total")) registry.removeSingleMetric(metric.name);
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metrics = {
  requests: new Histogram({
    name: "clausebridge_http_request_duration_seconds",
    help: "HTTP requests by route pattern, method and status class, and how long they took.",
    labelNames: ["route", "method", "status"] as const,
    buckets: SECONDS,
    registers: [registry],
  }),
  leadsStored: new Counter({
    name: "clausebridge_leads_stored_total",
    help: "Leads committed to the database, by request type and how they came: form, api (no key), api_key, staff (added by hand) or import.",
    labelNames: ["type", "via"] as const,
    registers: [registry],
  }),
  spamVerdicts: new Counter({
    name: "clausebridge_spam_verdicts_total",
    help: "Spam verdicts given to stored leads: held (kept out of the list), review or clean.",
    labelNames: ["level"] as const,
    registers: [registry],
  }),
  outboxSends: new Counter({
    name: "clausebridge_outbox_sends_total",
    help: "Outbox deliveries (emails, webhooks) by kind and outcome: sent, retry or failed (gave up).",
    labelNames: ["kind", "outcome"] as const,
    registers: [registry],
  }),
  auditDuration: new Histogram({
    name: "clausebridge_audit_duration_seconds",
    help: "Website audits (security grade, performance check, lab check) by kind and outcome, and how long they took.",
    labelNames: ["kind", "outcome"] as const,
    buckets: [0.5, 1, 2.5, 5, 10, 20, 30, 60],
    registers: [registry],
  }),
};

/** "2xx", "4xx"…: the label for a response status. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** What the gauges read at each scrape; services.server.ts sets them for the process's database. */
export type MetricsSources = {
  /** Outbox rows waiting to be sent and rows given up on, by status. */
  outbox?: () => Promise<{ pending: number; failed: number }>;
  /** PostgreSQL's pool: connections open, idle, and requests waiting for one. */
  poolUse?: () => { total: number; idle: number; waiting: number };
};

let sources: MetricsSources = {};

export function setMetricsSources(next: MetricsSources): void {
  sources = next;
}

/** A scrape never waits long on a slow database: the gauge keeps its last value instead. */
const SCRAPE_QUERY_TIMEOUT_MS = 1000;

new Gauge({
  name: "clausebridge_outbox_messages",
  help: "Outbox messages waiting to be sent (pending) and given up on (failed).",
  labelNames: ["status"] as const,
  registers: [registry],
  async collect() {
    if (!sources.outbox) return;
    try {
      const counts = await withDeadline(sources.outbox(), SCRAPE_QUERY_TIMEOUT_MS, "outbox count timed out");
      this.set({ status: "pending" }, counts.pending);
      this.set({ status: "failed" }, counts.failed);
    } catch {
      // The database is slow or down: /readyz and the request metrics say so.
    }
  },
});

new Gauge({
  name: "clausebridge_db_pool_connections",
  help: "PostgreSQL connection pool: connections open (total), idle, and requests waiting for one.",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const use = sources.poolUse?.();
    if (!use) return;
    this.set({ state: "total" }, use.total);
    this.set({ state: "idle" }, use.idle);
    this.set({ state: "waiting" }, use.waiting);
  },
});
