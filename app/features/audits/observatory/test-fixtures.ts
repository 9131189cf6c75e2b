// Builders for recorded responses in the analysers' tests: a response is its URL, headers and body;
// everything else the fetcher records is filled with plausible values the analysers do not read.

import { readFileSync } from "node:fs";
import type { FetchChain, FetchedResponse, FetchFailure, ScanInput, TlsDetails } from "../audit-types.ts";
import { buildContext } from "./analyse.ts";
import type { ObservatoryContext } from "./context.ts";
import type { HstsPreloadSnapshot } from "./hsts-preload.ts";

export type HeaderList = Record<string, string | string[]> | [string, string][];

function toPairs(headers: HeaderList): [string, string][] {
  if (Array.isArray(headers)) return headers.map(([name, value]) => [name.toLowerCase(), value]);
  return Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name.toLowerCase(), v]),
  );
}

export const TRUSTED_TLS: TlsDetails = {
  protocol: "TLSv1.3",
  cipher: "TLS_AES_128_GCM_SHA256",
  alpnProtocol: "h2",
  authorized: true,
  authorizationError: null,
  subject: "CN=www.example.com",
  issuer: "C=US, O=Let's Encrypt, CN=R11",
  validFrom: "2025-01-01T00:00:00.000Z",
  validTo: "2025-03-31T23:59:59.000Z",
  daysRemaining: 60,
};

export function response(
  url: string,
  headers: HeaderList = {},
  body = "",
  extra: Partial<FetchedResponse> = {},
): FetchedResponse {
  const pairs = toPairs(headers);
  const redirect = pairs.some(([name]) => name === "location");
  return {
    url,
    status: redirect ? 301 : 200,
    headers: pairs,
    body,
    bodyTruncated: false,
    httpVersion: "1.1",
    remoteAddress: "93.184.215.14",
    tls: url.startsWith("https:") ? TRUSTED_TLS : undefined,
    timings: {
      dnsMs: 1,
      connectMs: 1,
      tlsMs: url.startsWith("https:") ? 1 : null,
      ttfbMs: 5,
      downloadMs: 1,
      totalMs: 9,
    },
    transferredBytes: body.length,
    decodedBytes: body.length,
    encoding: "identity",
    ...extra,
  };
}

/** A redirect hop to `location`. */
export function redirect(url: string, location: string, status = 301): FetchedResponse {
  return response(url, { location }, "", { status });
}

export function chain(...hops: FetchedResponse[]): FetchChain {
  const final = hops.at(-1);
  if (!final) throw new Error("a chain needs at least one hop");
  return { hops, final };
}

export function failure(error = "connect_failed", details = "ECONNREFUSED"): FetchFailure {
  return { error, details };
}

export const HTML = { "content-type": "text/html; charset=utf-8" };

/** A site whose HTTPS page is `page` and whose HTTP address redirects to it. */
export function site(page: FetchedResponse, rest: Partial<ScanInput> = {}): ScanInput {
  const httpUrl = page.url.replace(/^https:/, "http:");
  return {
    url: page.url,
    http: chain(redirect(httpUrl, page.url), page),
    https: chain(page),
    ...rest,
  };
}

/** The context for one HTTPS page (redirected from HTTP), for testing one analyser. */
export function pageContext(
  headers: HeaderList,
  body = "",
  rest: Partial<ScanInput> = {},
): {
  input: ScanInput;
  context: ObservatoryContext;
} {
  const pairs = toPairs(headers);
  const withType = pairs.some(([name]) => name === "content-type") ? pairs : [...toPairs(HTML), ...pairs];
  const input = site(response("https://www.example.com/", withType, body), rest);
  return { input, context: buildContext(input) };
}

export function readFixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
}

/** A preload list as an audit sees it: `{ "example.dev": true }` means listed with include_subdomains. */
export function preloadSnapshot(entries: Record<string, boolean>): HstsPreloadSnapshot {
  return {
    source: "https://example.test/transport_security_state_static.json",
    retrievedAt: "2026-11-01T00:00:00.000Z",
    entries: new Map(Object.entries(entries)),
  };
}
