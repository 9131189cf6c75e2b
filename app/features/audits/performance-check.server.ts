import type { FetchChain, PerformanceResult } from "./audit-types.ts";
import {
  type Connector,
  header,
  isFetchFailure,
  type Resolver,
  type SafeFetchOptions,
  safeFetch,
} from "./safe-fetch.server.ts";
import type { AllowPrivate } from "./target-policy.server.ts";

// The staff performance check (SPEC section 3, issue 5): the page is fetched a few times, each on a
// fresh connection so DNS, TCP and TLS are measured every time, and the median run is reported — one
// run alone is too much at the mercy of a single slow packet.

export type PerformanceCheckOptions = {
  allowPrivate?: AllowPrivate;
  runs?: number;
  ca?: SafeFetchOptions["ca"];
  resolve?: Resolver;
  connect?: Connector;
  timeoutMs?: number;
};

type Run = { chain: FetchChain; totalMs: number };

export async function runPerformanceCheck(
  url: string,
  options: PerformanceCheckOptions = {},
): Promise<PerformanceResult> {
  const runCount = Math.max(1, options.runs ?? 3);
  const runs: Run[] = [];
  // One after the other: parallel runs would compete for the same bandwidth and skew each other.
  for (let index = 0; index < runCount; index++) {
    const started = performance.now();
    const result = await safeFetch(url, {
      method: "GET",
      allowPrivate: options.allowPrivate,
      ca: options.ca,
      resolve: options.resolve,
      connect: options.connect,
      timeoutMs: options.timeoutMs,
    });
    // A run that fails makes the whole check fail: a median of the runs that happened to work
    // would hide an unreliable site.
    if (isFetchFailure(result)) return failed(url, result.error, result.details);
    runs.push({ chain: result, totalMs: performance.now() - started });
  }

  const sorted = [...runs].sort((a, b) => a.totalMs - b.totalMs);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as Run;
  const { final, hops } = median.chain;
  const encoding = final.encoding === "identity" ? "none" : final.encoding;
  return {
    url,
    loadTime: Math.round(median.totalMs),
    status: final.status,
    contentLength: final.decodedBytes,
    hasCompression: encoding !== "none",
    serverType: header(final.headers, "server") ?? "Unknown",
    compression: encoding,
    transferredBytes: final.transferredBytes,
    httpVersion: final.httpVersion,
    // We offer h2 in every TLS handshake, so the final hop's ALPN answer is the server's offer.
    http2Offered: final.tls?.alpnProtocol === "h2",
    redirects: hops.slice(0, -1).map((hop) => ({ url: hop.url, status: hop.status })),
    // The final response's phases; loadTime also covers any redirects before it.
    timings: final.timings,
    cacheControl: header(final.headers, "cache-control"),
    runs: runs.map((run) => Math.round(run.totalMs)),
  };
}

function failed(url: string, error: string, details: string): PerformanceResult {
  return {
    url,
    error,
    details,
    loadTime: 0,
    status: 0,
    contentLength: 0,
    hasCompression: false,
    serverType: "Unknown",
  };
}
