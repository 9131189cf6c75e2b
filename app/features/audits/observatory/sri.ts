// Subresource Integrity test (reference: src/analyzer/tests/subresource-integrity.js): scripts
// from another site must be loaded over HTTPS and carry an integrity hash. "Another site" means a
// different registrable domain, so cdn.example.com is the same site as www.example.com.

import { getDomain } from "tldts";
import type { AuditIssue, ScanInput } from "../audit-types.ts";
import {
  CATEGORY,
  HTML_TYPES,
  mediaType,
  type ObservatoryContext,
  type TestOutcome,
  verdict,
} from "./context.ts";
import { normaliseHostname } from "./hsts-preload.ts";
import type { ObservatoryResult } from "./score.ts";

/**
 * The registrable domain ("eTLD+1", browsers' "site") of a host, from the Public Suffix List that
 * tldts bundles, as the reference does. NOTE: private suffixes count (github.io, herokuapp.com...),
 * unlike in the reference: a.github.io and b.github.io are different sites to a browser, so a script
 * from one on the other is a third party's. IP addresses and single-label hosts stand for themselves.
 */
export function registrableDomain(hostname: string): string {
  const host = normaliseHostname(hostname);
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

// Best to worst (reference `goodness`).
const BEST_TO_WORST: ObservatoryResult[] = [
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-implemented-but-external-scripts-not-loaded-securely",
  "sri-not-implemented-but-external-scripts-loaded-securely",
  "sri-not-implemented-and-external-scripts-not-loaded-securely",
  "sri-not-implemented-response-not-html",
];

const PASSING: ReadonlySet<ObservatoryResult> = new Set([
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-not-implemented-response-not-html",
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
  "sri-not-implemented-but-no-scripts-loaded",
]);

const DESCRIPTIONS: Partial<Record<ObservatoryResult, string>> = {
  "sri-implemented-and-all-scripts-loaded-securely":
    "Subresource Integrity implemented and all scripts are loaded from a similar origin.",
  "sri-implemented-and-external-scripts-loaded-securely":
    "Subresource Integrity implemented and all scripts are loaded securely.",
  "sri-not-implemented-response-not-html": "Subresource Integrity is only needed for HTML responses.",
  "sri-not-implemented-but-no-scripts-loaded": "Subresource Integrity not needed: the page has no scripts.",
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin":
    "Subresource Integrity not implemented, but all scripts are loaded from a similar origin.",
  "sri-not-implemented-but-external-scripts-loaded-securely":
    "Subresource Integrity not implemented, but all external scripts are loaded over HTTPS.",
  "sri-implemented-but-external-scripts-not-loaded-securely":
    "Subresource Integrity implemented, but external scripts are loaded over HTTP or protocol-relative URLs.",
  "sri-not-implemented-and-external-scripts-not-loaded-securely":
    "Subresource Integrity not implemented, and external scripts are loaded over HTTP or protocol-relative URLs.",
};

export function sriTest(_input: ScanInput, context: ObservatoryContext): TestOutcome {
  const mime = mediaType(context.response);
  let result: ObservatoryResult | null = null;
  const withoutIntegrity: string[] = [];
  const insecure: string[] = [];

  if (mime && !HTML_TYPES.has(mime)) result = "sri-not-implemented-response-not-html";
  else {
    const scripts = context.html?.scripts ?? [];
    const pageDomain = registrableDomain(context.url.hostname);
    const pageSecure = context.url.protocol === "https:";
    let foreign = false;
    const worsen = (next: ObservatoryResult) => {
      if (result === null || BEST_TO_WORST.indexOf(next) > BEST_TO_WORST.indexOf(result)) result = next;
    };
    for (const script of scripts) {
      if (!script.src) continue;
      const src = script.src;
      const protocolRelative = /^\/\/[^/]/.test(src);
      const absolute = /^https?:\/\//i.test(src);
      const relative = !protocolRelative && !absolute;
      let sameSite = relative || protocolRelative;
      if (absolute) {
        try {
          sameSite = registrableDomain(new URL(src).hostname) === pageDomain;
        } catch {
          sameSite = false;
        }
      }
      // NOTE: as in the reference, a protocol-relative URL always counts as foreign and insecure,
      // and an absolute http:// URL on the same site counts as same-origin (mixed content is
      // reported separately by extras.ts).
      const secureOrigin = relative || (sameSite && !protocolRelative);
      const secureScheme = absolute ? src.toLowerCase().startsWith("https:") : relative && pageSecure;
      const integrity = Boolean(script.integrity?.trim());
      if (!secureOrigin) {
        foreign = true;
        if (!integrity) withoutIntegrity.push(src);
        if (!secureScheme) insecure.push(src);
        if (integrity && !secureScheme) worsen("sri-implemented-but-external-scripts-not-loaded-securely");
        else if (!integrity && secureScheme)
          worsen("sri-not-implemented-but-external-scripts-loaded-securely");
        else if (!integrity) worsen("sri-not-implemented-and-external-scripts-not-loaded-securely");
      } else if (integrity && secureScheme && result === null) {
        result = "sri-implemented-and-all-scripts-loaded-securely";
      }
    }
    if (scripts.length === 0) result = "sri-not-implemented-but-no-scripts-loaded";
    else if (result === null)
      result = foreign
        ? "sri-implemented-and-external-scripts-loaded-securely"
        : "sri-not-implemented-but-all-scripts-loaded-from-secure-origin";
  }
  const final: ObservatoryResult = result ?? "sri-not-implemented-but-no-scripts-loaded";

  const issues: AuditIssue[] = [];
  const sample = (list: string[]) =>
    list.slice(0, 5).join(", ") + (list.length > 5 ? ` and ${list.length - 5} more` : "");
  if (insecure.length > 0)
    issues.push({
      id: "sri-external-scripts-insecure",
      title: "External scripts loaded over HTTP",
      severity: "critical",
      category: CATEGORY.sri,
      description: `${sample(insecure)} ${insecure.length === 1 ? "is" : "are"} loaded over HTTP or a protocol-relative URL, so a network attacker can replace the script and take over the page.`,
      remediation:
        'Load every script over https:// and pin third-party scripts with `integrity="sha384-…" crossorigin="anonymous"`.',
    });
  if (withoutIntegrity.length > 0 && insecure.length === 0)
    issues.push({
      id: "sri-missing",
      title: "Third-party scripts without Subresource Integrity",
      severity: "medium",
      category: CATEGORY.sri,
      description: `${sample(withoutIntegrity)} ${withoutIntegrity.length === 1 ? "is" : "are"} loaded from another site without an integrity hash: if that host is compromised, its code runs on your page.`,
      remediation:
        'Add `integrity="sha384-<hash>" crossorigin="anonymous"` to each external <script> (generate the hash with `openssl dgst -sha384 -binary file.js | openssl base64 -A`), or self-host the script.',
    });
  return {
    test: verdict("subresource-integrity", final, PASSING.has(final), DESCRIPTIONS[final] ?? final),
    issues,
  };
}
