import { randomBytes } from "node:crypto";
import type { FetchChain, FetchedResponse, FetchFailure, ScanInput } from "./audit-types.ts";
import { isFetchFailure, type SafeFetchOptions, safeFetch } from "./safe-fetch.server.ts";

// The network half of a security audit: every fetch the Observatory-style analysers read. Runs in
// the audit's child process (audit-process.server.ts) in production; tests call it directly.

/** The page's origin for a CORS probe: random, so a server cannot special-case it. */
function foreignOrigin(): string {
  return `https://audit-${randomBytes(4).toString("hex")}.example`;
}

function finalOf(result: FetchChain | FetchFailure): FetchedResponse | undefined {
  return isFetchFailure(result) ? undefined : result.final;
}

/**
 * Fetches everything the Observatory-style analysers read (HTTP and HTTPS chains, CORS probes,
 * security.txt, robots.txt for its cookies), each through the SSRF-safe fetcher.
 */
export async function scanWebsite(
  url: URL,
  options: SafeFetchOptions,
  /** Where to try each scheme; by default the standard ports (tests serve them on random ports). */
  endpoints?: { http: string; https: string },
): Promise<ScanInput & { corsOrigin?: string }> {
  const path = `${url.pathname}${url.search}`;
  // An explicit port belongs to the scheme the user typed; the other scheme is tried on its default.
  const httpUrl = endpoints?.http ?? `http://${url.protocol === "http:" ? url.host : url.hostname}${path}`;
  const httpsUrl =
    endpoints?.https ?? `https://${url.protocol === "https:" ? url.host : url.hostname}${path}`;
  const [http, https] = await Promise.all([safeFetch(httpUrl, options), safeFetch(httpsUrl, options)]);
  const final = finalOf(https) ?? finalOf(http);
  const input: ScanInput = { url: url.href, http, https };
  if (!final) return input;
  const origin = foreignOrigin();
  const finalOrigin = new URL(final.url).origin;
  const [corsGet, corsPreflight, securityTxt, robotsTxt] = await Promise.all([
    safeFetch(final.url, { ...options, maxRedirects: 0, headers: { Origin: origin } }),
    safeFetch(final.url, {
      ...options,
      method: "OPTIONS",
      maxRedirects: 0,
      headers: { Origin: origin, "Access-Control-Request-Method": "GET" },
    }),
    safeFetch(`${finalOrigin}/.well-known/security.txt`, { ...options, maxRedirects: 3 }),
    safeFetch(`${finalOrigin}/robots.txt`, {
      ...options,
      maxRedirects: 3,
      // Only its Set-Cookie headers are read.
      maxBodyBytes: 16 * 1024,
      headers: { Accept: "text/plain,*/*;q=0.8" },
    }),
  ]);
  return {
    ...input,
    corsOrigin: origin,
    corsGet: isFetchFailure(corsGet) ? corsGet : corsGet.final,
    corsPreflight: isFetchFailure(corsPreflight) ? corsPreflight : corsPreflight.final,
    securityTxt: isFetchFailure(securityTxt) ? securityTxt : securityTxt.final,
    robotsTxt,
  };
}

/**
 * Why nothing could be graded, or null when either scheme answered. Both probes failed, so report
 * the address the user typed: for `https://host:8443/` its own failure, not the port-80 probe's.
 */
export function scanFailure(typed: URL, scan: Pick<ScanInput, "http" | "https">): FetchFailure | null {
  if (!isFetchFailure(scan.https) || !isFetchFailure(scan.http)) return null;
  return typed.protocol === "https:" ? scan.https : scan.http;
}
