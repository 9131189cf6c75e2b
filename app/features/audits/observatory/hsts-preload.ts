// Chromium's HSTS preload list as the HTTP Observatory reads it (reference: src/analyzer/hsts.js and
// src/retrieve-hsts.js). Only "force-https" entries count; a host is preloaded when it is listed
// itself, or when a parent domain up to the TLD (`dev`, `app`, ...) is listed with
// include_subdomains. Pure: the entries come from the database (hsts-preload-list.server.ts).

import type { ScanInput } from "../audit-types.ts";
import { chainOf } from "./context.ts";

export type HstsPreloadEntry = { name: string; includeSubdomains: boolean };

/** What an audit knows of the list: its origin and age, and the entries for the names it needs. */
export type HstsPreloadSnapshot = {
  /** Where the list was downloaded from. */
  source: string;
  /** ISO date of the download. */
  retrievedAt: string;
  /** name → include_subdomains, for (at least) every name preloadCandidates() gives for the hosts asked about. */
  entries: ReadonlyMap<string, boolean>;
};

/** The list's own spelling of a host: lower case, no trailing dot, no IPv6 brackets. */
export function normaliseHostname(hostname: string): string {
  return hostname
    .trim()
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[|\]$/g, "");
}

/** `a.b.example.dev` → [`a.b.example.dev`, `b.example.dev`, `example.dev`, `dev`]; [] for an IP address. */
export function preloadCandidates(hostname: string): string[] {
  const host = normaliseHostname(hostname);
  // The list holds names only; an IP's "parents" (`215.14`, `14`) are not domains.
  if (host.includes(":") || /^[\d.]+$/.test(host)) return [];
  const labels = host.split(".");
  return labels.map((_, index) => labels.slice(index).join(".")).filter(Boolean);
}

/** The entry that preloads `hostname`, or null (also for IP addresses, which the list never holds). */
export function findHstsPreload(
  snapshot: HstsPreloadSnapshot | null,
  hostname: string,
): HstsPreloadEntry | null {
  if (!snapshot) return null;
  const [exact, ...parents] = preloadCandidates(hostname);
  if (exact === undefined) return null;
  const own = snapshot.entries.get(exact);
  if (own !== undefined) return { name: exact, includeSubdomains: own };
  for (const parent of parents) {
    if (snapshot.entries.get(parent) === true) return { name: parent, includeSubdomains: true };
  }
  return null;
}

/** Every host whose preload status the tests read: the audited site and each plain-HTTP redirect hop. */
export function preloadHostsOf(input: Pick<ScanInput, "url" | "http">): string[] {
  const hops = chainOf(input.http)?.hops ?? [];
  const hosts = [new URL(input.url).hostname, ...hops.map((hop) => new URL(hop.url).hostname)];
  return [...new Set(hosts.map(normaliseHostname))];
}
