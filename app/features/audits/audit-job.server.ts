import { scanFailure, scanWebsite } from "./audit-scan.server.ts";
import type { AuditResult, FetchFailure, ScanInput } from "./audit-types.ts";
import { analyse, ObservatoryScanError } from "./observatory/analyse.ts";
import { isFailure } from "./observatory/context.ts";
import { type HstsPreloadSnapshot, preloadHostsOf } from "./observatory/hsts-preload.ts";
import type { Connector, Resolver } from "./safe-fetch.server.ts";
import { runTlsCheck } from "./tls/tls-check.server.ts";
import { withTlsFindings } from "./tls/tls-issues.ts";

// One security audit from URL to result, without the database: fetch, then grade. It runs in a
// child process (audit-process.server.ts) because grading parses whatever HTML the site sends, and
// a hostile page of tiny tags costs hundreds of MB and a long stretch of CPU (issue 9 point 11).

/** What the child is asked to do: plain data, so it crosses the process boundary. */
export type AuditJob = { url: string; allowPrivate: boolean };

export type AuditJobOutcome =
  | { kind: "result"; result: AuditResult }
  /** Neither scheme answered: the typed address's own failure. */
  | { kind: "unreachable"; failure: FetchFailure }
  /** Fetched, but the Observatory does not grade it (not 2xx). */
  | { kind: "not-gradable"; message: string };

/** The HSTS preload entries for some hosts; the list lives in the database, which the parent owns. */
export type PreloadLookup = (hosts: string[]) => Promise<HstsPreloadSnapshot | null>;

/**
 * The TLS check's share of the child's 45 s: the fetches take at most ~20 s, and a server that stalls
 * old-version handshakes costs a few seconds per version.
 */
export const AUDIT_TLS_CHECK_LIMITS = { timeoutMs: 15_000, handshakeTimeoutMs: 4_000 };

/** The https address whose response is graded: the HTTPS chain's end, else the HTTP chain's if it ends on https. */
export function gradedHttpsUrl(scan: Pick<ScanInput, "http" | "https">): string | null {
  for (const chain of [scan.https, scan.http]) {
    if (!isFailure(chain) && chain.final.url.startsWith("https:")) return chain.final.url;
  }
  return null;
}

/** How the audit reaches the network: the system's resolver and sockets, or (tests) injected ones. */
export type AuditNetwork = { resolve?: Resolver; connect?: Connector };

export async function runAuditJob(
  job: AuditJob,
  lookupPreload: PreloadLookup,
  network: AuditNetwork = {},
): Promise<AuditJobOutcome> {
  const url = new URL(job.url);
  const scan = await scanWebsite(url, { allowPrivate: job.allowPrivate, ...network });
  const failure = scanFailure(url, scan);
  if (failure) return { kind: "unreachable", failure };
  const hstsPreload = await lookupPreload(preloadHostsOf(scan));
  let result: AuditResult;
  try {
    result = analyse(scan, { corsOrigin: scan.corsOrigin, hstsPreload });
  } catch (error) {
    if (error instanceof ObservatoryScanError) return { kind: "not-gradable", message: error.message };
    throw error;
  }
  // Issue 25: the TLS check's findings join the issues; the Observatory score and grade stay its own.
  const httpsUrl = gradedHttpsUrl(scan);
  if (!httpsUrl) return { kind: "result", result };
  const tls = await runTlsCheck(httpsUrl, {
    allowPrivate: job.allowPrivate,
    resolver: network.resolve,
    connect: network.connect,
    ...AUDIT_TLS_CHECK_LIMITS,
  });
  return { kind: "result", result: withTlsFindings(result, tls) };
}
