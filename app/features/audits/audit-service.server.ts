import { randomBytes } from "node:crypto";
import type { RouterContextProvider } from "react-router";
import { getServices } from "#app/services.server.ts";
import {
  listSecurityAudits,
  type SecurityAuditRecord,
  savePerformanceCheck,
  saveSecurityAudit,
} from "./audit-store.server.ts";
import type {
  AuditResult,
  FetchChain,
  FetchedResponse,
  FetchFailure,
  PerformanceResult,
  ScanInput,
} from "./audit-types.ts";
import { hstsPreloadFor } from "./hsts-preload-list.server.ts";
import { analyse, ObservatoryScanError } from "./observatory/analyse.ts";
import { failureText } from "./observatory/context.ts";
import { preloadHostsOf } from "./observatory/hsts-preload.ts";
import { runPerformanceCheck } from "./performance-check.server.ts";
import { isFetchFailure, type SafeFetchOptions, safeFetch } from "./safe-fetch.server.ts";
import { parseTargetUrl } from "./target-policy.server.ts";

type Context = Readonly<RouterContextProvider>;

export type AuditOutcome =
  | { ok: true; record: SecurityAuditRecord }
  | { ok: false; status: number; message: string; error?: string; details?: string };

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

/** POST /api/admin/security-audit and the audit page's form: audit, store, answer. */
export async function runSecurityAudit(
  context: Context,
  rawUrl: unknown,
  actor: string,
): Promise<AuditOutcome> {
  const target = parseTargetUrl(typeof rawUrl === "string" ? rawUrl : "");
  if (!target.ok)
    return { ok: false, status: 400, message: target.details, error: target.error, details: target.details };
  const { database, env } = await getServices(context);
  const scan = await scanWebsite(target.url, { allowPrivate: env.AUDIT_ALLOW_PRIVATE_TARGETS });
  const failure = scanFailure(target.url, scan);
  if (failure) {
    // Refused targets and unreachable ones alike: nothing to analyse, nothing stored.
    return { ok: false, status: 422, message: failureText(failure), ...failure };
  }
  let result: AuditResult;
  try {
    const hstsPreload = await hstsPreloadFor(database.db, preloadHostsOf(scan));
    result = analyse(scan, { corsOrigin: scan.corsOrigin, hstsPreload });
  } catch (error) {
    if (error instanceof ObservatoryScanError) {
      return {
        ok: false,
        status: 422,
        message: error.message,
        error: "Cannot grade this site",
        details: error.message,
      };
    }
    throw error;
  }
  return { ok: true, record: await saveSecurityAudit(database.db, result, actor) };
}

/** POST /api/admin/performance-check and the page's form: always a result (with error on failure). */
export async function runPerformanceCheckForAdmin(
  context: Context,
  rawUrl: unknown,
  actor: string,
): Promise<{ ok: true; result: PerformanceResult } | { ok: false; status: number; message: string }> {
  const target = parseTargetUrl(typeof rawUrl === "string" ? rawUrl : "");
  if (!target.ok) return { ok: false, status: 400, message: target.details };
  const { database, env } = await getServices(context);
  const result = await runPerformanceCheck(target.url.href, {
    allowPrivate: env.AUDIT_ALLOW_PRIVATE_TARGETS,
  });
  await savePerformanceCheck(database.db, result, actor);
  return { ok: true, result };
}

export { listSecurityAudits };
