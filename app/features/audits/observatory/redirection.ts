// Redirection test (reference: src/analyzer/tests/redirection.js): the plain-HTTP address must
// redirect, first to HTTPS on the same host, and end on HTTPS.
// Every host on the route being on the HSTS preload list passes too ("all redirects preloaded"):
// browsers then never send the plain-HTTP requests at all.

import type { AuditIssue, ScanInput } from "../audit-types.ts";
import { CATEGORY, chainOf, type ObservatoryContext, type TestOutcome, verdict } from "./context.ts";
import { findHstsPreload } from "./hsts-preload.ts";
import type { ObservatoryResult } from "./score.ts";

export function analyseRedirection(
  input: ScanInput,
  context: Pick<ObservatoryContext, "hstsPreload">,
): { result: ObservatoryResult; route: string[] } {
  const chain = chainOf(input.http);
  if (!chain) return { result: "redirection-not-needed-no-http", route: [] };
  const route = chain.hops.map((hop) => new URL(hop.url));
  const routeText = route.map((url) => url.href);
  const final = chain.final;
  if (final.url.startsWith("https:") && final.tls && !final.tls.authorized)
    return { result: "redirection-invalid-cert", route: routeText };
  const [first, second] = route;
  const last = route.at(-1);
  let result: ObservatoryResult;
  if (route.length > 0 && route.every((url) => findHstsPreload(context.hstsPreload, url.hostname)))
    result = "redirection-all-redirects-preloaded";
  else if (route.length <= 1) result = "redirection-missing";
  else if (last?.protocol !== "https:") result = "redirection-not-to-https";
  else if (second?.protocol === "http:") result = "redirection-not-to-https-on-initial-redirection";
  // HSTS set by the final host is never seen for the original host when the first hop leaves it.
  else if (first?.protocol === "http:" && second?.protocol === "https:" && first.hostname !== second.hostname)
    result = "redirection-off-host-from-http";
  else result = "redirection-to-https";
  return { result, route: routeText };
}

const PASSING: ReadonlySet<ObservatoryResult> = new Set([
  "redirection-to-https",
  "redirection-not-needed-no-http",
  "redirection-all-redirects-preloaded",
]);

const DESCRIPTIONS: Partial<Record<ObservatoryResult, string>> = {
  "redirection-all-redirects-preloaded": "All hosts redirected to are in the HSTS preload list.",
  "redirection-to-https": "Initial redirection is to HTTPS on the same host, final destination is HTTPS.",
  "redirection-not-needed-no-http": "Not able to connect over HTTP, so no redirection is needed.",
  "redirection-off-host-from-http":
    "Initial redirection from HTTP to HTTPS is to a different host, preventing HSTS.",
  "redirection-not-to-https-on-initial-redirection":
    "Redirects to HTTPS eventually, but the first redirection is to another HTTP URL.",
  "redirection-not-to-https": "Redirects, but the final destination is not an HTTPS URL.",
  "redirection-missing": "Does not redirect to HTTPS.",
  "redirection-invalid-cert": "Invalid certificate chain encountered during redirection.",
};

const FIX =
  "Answer every plain-HTTP request with `301 Moved Permanently` and `Location: https://<same host><same path>`, then send Strict-Transport-Security from the HTTPS site.";

export function redirectionTest(input: ScanInput, context: ObservatoryContext): TestOutcome {
  const { result, route } = analyseRedirection(input, context);
  const category = CATEGORY.transport;
  const issues: AuditIssue[] = [];
  const via = route.length > 1 ? ` Route: ${route.join(" → ")}.` : "";
  switch (result) {
    case "redirection-missing":
    case "redirection-not-to-https":
      issues.push({
        id: "redirect-to-https-missing",
        title: "HTTP does not redirect to HTTPS",
        severity: "critical",
        category,
        description: `Visitors who type the address or follow an http:// link stay on plain HTTP, where the page can be read and altered in transit.${via}`,
        remediation: FIX,
      });
      break;
    case "redirection-not-to-https-on-initial-redirection":
      issues.push({
        id: "redirect-initial-not-https",
        title: "First redirect goes to another HTTP address",
        severity: "medium",
        category,
        description: `The first hop stays on HTTP, so a network attacker can hijack the redirect chain.${via}`,
        remediation: FIX,
      });
      break;
    case "redirection-off-host-from-http":
      issues.push({
        id: "redirect-off-host",
        title: "HTTP redirects to HTTPS on a different host",
        severity: "low",
        category,
        description: `The original host never gets to set HSTS over HTTPS, so its future HTTP visits stay exposed.${via}`,
        remediation: "Redirect http://host/ to https://host/ first (same host), then to the final host.",
      });
      break;
    case "redirection-invalid-cert":
      issues.push({
        id: "redirect-invalid-cert",
        title: "Redirect ends on a certificate error",
        severity: "high",
        category,
        description: `Browsers show a certificate warning at the end of the redirect chain.${via}`,
        remediation: "Install a trusted certificate that matches every host on the redirect route.",
      });
      break;
  }
  return {
    test: verdict("redirection", result, PASSING.has(result), DESCRIPTIONS[result] ?? result),
    issues,
  };
}
