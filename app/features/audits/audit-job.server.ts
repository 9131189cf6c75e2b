import { scanFailure, scanWebsite } from "./audit-scan.server.ts";
import type { AuditResult, FetchFailure } from "./audit-types.ts";
import { analyse, ObservatoryScanError } from "./observatory/analyse.ts";
import { type HstsPreloadSnapshot, preloadHostsOf } from "./observatory/hsts-preload.ts";

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

export async function runAuditJob(job: AuditJob, lookupPreload: PreloadLookup): Promise<AuditJobOutcome> {
  const url = new URL(job.url);
  const scan = await scanWebsite(url, { allowPrivate: job.allowPrivate });
  const failure = scanFailure(url, scan);
  if (failure) return { kind: "unreachable", failure };
  const hstsPreload = await lookupPreload(preloadHostsOf(scan));
  try {
    return { kind: "result", result: analyse(scan, { corsOrigin: scan.corsOrigin, hstsPreload }) };
  } catch (error) {
    if (error instanceof ObservatoryScanError) return { kind: "not-gradable", message: error.message };
    throw error;
  }
}
