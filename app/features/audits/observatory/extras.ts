// Checks beyond the Observatory's ten tests. They raise issues only and never change the
// Observatory-compatible score, so that score stays comparable with MDN's.

import { plural } from "#app/lib/plural.ts";
import type { AuditIssue, FetchedResponse, ScanInput } from "../audit-types.ts";
import {
  CATEGORY,
  chainOf,
  failureText,
  firstHeader,
  isFailure,
  type ObservatoryContext,
  quoted,
} from "./context.ts";

const DAY_MS = 86_400_000;

export function tlsIssues(context: ObservatoryContext): AuditIssue[] {
  const tls = context.httpsResponse?.tls;
  if (!tls) return [];
  const category = CATEGORY.transport;
  const issues: AuditIssue[] = [];
  if (!tls.authorized)
    issues.push({
      id: "tls-certificate-invalid",
      title: "TLS certificate not trusted",
      severity: "critical",
      category,
      description: `Browsers show a full-page warning: ${tls.authorizationError ?? "the certificate chain could not be verified"}.`,
      remediation:
        "Install a certificate from a trusted CA that covers this host name, and serve the full chain (leaf plus intermediates). Let's Encrypt with automatic renewal is free.",
    });
  const days = tls.daysRemaining;
  if (days !== null) {
    const until = tls.validTo ? ` (valid until ${tls.validTo})` : "";
    if (days < 0)
      issues.push({
        id: "tls-certificate-expired",
        title: "TLS certificate expired",
        severity: "critical",
        category,
        description: `The certificate expired ${plural(-days, "day")} ago${until}; browsers block the site with a warning.`,
        remediation:
          "Renew the certificate now and automate renewal (for example certbot or your host's managed certificates).",
      });
    else if (days <= 30)
      issues.push({
        id: "tls-certificate-expiring",
        title: `TLS certificate expires in ${plural(days, "day")}`,
        severity: days <= 7 ? "high" : "medium",
        category,
        description: `The certificate expires soon${until}. Automated renewal normally renews 30 days before expiry, so it may be failing.`,
        remediation:
          "Renew the certificate and check that automatic renewal runs (and alerts you when it fails).",
      });
    else if (tls.authorized)
      issues.push({
        id: "tls-certificate-valid",
        title: `TLS certificate valid for ${days} more days`,
        severity: "info",
        category,
        description: `The certificate is trusted${tls.issuer ? `, issued by ${tls.issuer}` : ""}${until}${tls.protocol ? `; connection used ${tls.protocol}` : ""}.`,
      });
  }
  return issues;
}

// Headers that name software; a version number tells attackers which known flaws to try.
const DISCLOSURE_HEADERS = [
  "server",
  "x-powered-by",
  "x-aspnet-version",
  "x-aspnetmvc-version",
  "x-generator",
];

export function disclosureIssues(context: ObservatoryContext): AuditIssue[] {
  const issues: AuditIssue[] = [];
  for (const name of DISCLOSURE_HEADERS) {
    const value = firstHeader(context.response, name)?.trim();
    if (!value) continue;
    const withVersion = /\d+\.\d+|\/\d/.test(value);
    // A bare product name in Server ("nginx", "cloudflare") is near-universal and harmless.
    if (name === "server" && !withVersion) continue;
    const header =
      name === "server"
        ? "Server"
        : name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
    issues.push({
      id: name === "server" ? "server-version-disclosure" : `${name}-disclosure`,
      title: `${header} header reveals ${withVersion ? "software versions" : "the framework"}`,
      severity: "low",
      category: CATEGORY.disclosure,
      description: `\`${header}: ${quoted(value)}\` tells attackers which software${withVersion ? " and version" : ""} runs the site, so they can go straight to its known vulnerabilities.`,
      remediation:
        name === "server"
          ? "Hide the version: `server_tokens off;` (nginx), `ServerTokens Prod` + `ServerSignature Off` (Apache), or remove the header at your proxy/CDN."
          : name === "x-powered-by"
            ? "Remove the header: `app.disable('x-powered-by')` (Express), `expose_php = Off` (PHP), or strip it at your proxy/CDN."
            : `Stop sending ${header} (framework configuration or proxy).`,
    });
  }
  return issues;
}

/** Reads RFC 9116's Expires field; null when absent or unparseable. */
export function securityTxtExpiry(body: string): Date | null | "invalid" {
  const line = body.split(/\r?\n/).find((l) => /^expires\s*:/i.test(l.trim()));
  if (!line) return null;
  const date = new Date(line.slice(line.indexOf(":") + 1).trim());
  return Number.isNaN(date.getTime()) ? "invalid" : date;
}

export function securityTxtIssues(input: ScanInput, now: Date): AuditIssue[] {
  const probe = input.securityTxt;
  if (probe === undefined) return [];
  const category = CATEGORY.disclosurePolicy;
  const example =
    "Contact: mailto:security@example.com\nExpires: 2026-12-31T23:59:59Z\nPreferred-Languages: en";
  const missing: AuditIssue = {
    id: "security-txt-missing",
    title: "No security.txt",
    severity: "low",
    category,
    description:
      "There is no /.well-known/security.txt (RFC 9116), so people who find a vulnerability have no published way to report it.",
    remediation: `Serve /.well-known/security.txt as text/plain with at least:\n${example}`,
  };
  // A probe that failed (timed out, reset) says nothing about the file: say so, not "missing".
  if (isFailure(probe))
    return [
      {
        id: "security-txt-unchecked",
        title: "security.txt could not be checked",
        severity: "info",
        category,
        description: `The request for /.well-known/security.txt did not complete (${quoted(failureText(probe))}), so whether the site publishes one is unknown.`,
        remediation: "Run the audit again; if it keeps failing, check that the path answers quickly.",
      },
    ];
  const response: FetchedResponse = probe;
  const type = (firstHeader(response, "content-type") ?? "").toLowerCase();
  // Single-page apps often answer every path with their HTML shell and a 200.
  if (response.status !== 200 || !/^contact\s*:/im.test(response.body) || type.includes("html"))
    return [missing];
  const expires = securityTxtExpiry(response.body);
  if (expires === null || expires === "invalid")
    return [
      {
        id: "security-txt-no-expires",
        title: `security.txt has ${expires === null ? "no" : "an unreadable"} Expires field`,
        severity: "low",
        category,
        description:
          "RFC 9116 requires an Expires field (an ISO 8601 date) so readers know the contact details are current.",
        remediation:
          "Add a line such as `Expires: 2026-12-31T23:59:59Z` (less than a year ahead) and renew it before then.",
      },
    ];
  if (expires.getTime() < now.getTime())
    return [
      {
        id: "security-txt-expired",
        title: "security.txt has expired",
        severity: "low",
        category,
        description: `Its Expires date (${expires.toISOString()}) has passed, so the contact details should be treated as stale.`,
        remediation: "Check the contacts and set a new Expires date less than a year ahead.",
      },
    ];
  const days = Math.floor((expires.getTime() - now.getTime()) / DAY_MS);
  return [
    {
      id: "security-txt-present",
      title: "security.txt published",
      severity: "info",
      category,
      description: `/.well-known/security.txt lists a contact and expires in ${plural(days, "day")}.`,
    },
  ];
}

export function coopIssues(context: ObservatoryContext): AuditIssue[] {
  const raw = firstHeader(context.response, "cross-origin-opener-policy");
  const value = raw?.split(";")[0]?.trim().toLowerCase() ?? null;
  const category = CATEGORY.isolation;
  const remediation =
    "Send `Cross-Origin-Opener-Policy: same-origin` (or `same-origin-allow-popups` if you open OAuth/payment pop-ups that must talk back).";
  if (value === null)
    return [
      {
        id: "coop-missing",
        title: "No Cross-Origin-Opener-Policy",
        severity: "low",
        category,
        description:
          "Pages this site opens, or that open it, keep a handle on its window, which enables cross-window attacks (tab-nabbing, XS-Leaks) and prevents process isolation.",
        remediation,
      },
    ];
  if (value === "unsafe-none")
    return [
      {
        id: "coop-unsafe",
        title: "Cross-Origin-Opener-Policy set to unsafe-none",
        severity: "low",
        category,
        description:
          "unsafe-none is the default: the page shares its browsing context group with cross-origin windows.",
        remediation,
      },
    ];
  if (!["same-origin", "same-origin-allow-popups", "noopener-allow-popups"].includes(value))
    return [
      {
        id: "coop-invalid",
        title: "Cross-Origin-Opener-Policy not recognised",
        severity: "low",
        category,
        description: `\`${raw}\` is not a valid value, so browsers ignore it.`,
        remediation,
      },
    ];
  return [
    {
      id: "coop-implemented",
      title: `Cross-Origin-Opener-Policy: ${value}`,
      severity: "info",
      category,
      description: "The page is isolated from cross-origin windows it opens or is opened by.",
    },
  ];
}

// Which tag/attribute pairs load something into the page. Active content can run code or change
// the whole page and browsers block it on HTTPS pages; passive content is only displayed.
const ACTIVE_TAGS: Record<string, string> = {
  script: "src",
  iframe: "src",
  frame: "src",
  object: "data",
  embed: "src",
};
const PASSIVE_TAGS: Record<string, string> = {
  img: "src",
  audio: "src",
  video: "src",
  source: "src",
  track: "src",
};
const ACTIVE_LINK_RELS = ["stylesheet", "preload", "modulepreload", "prefetch", "import", "manifest"];

export function mixedContentIssues(context: ObservatoryContext): AuditIssue[] {
  if (context.url.protocol !== "https:" || !context.html) return [];
  const active: string[] = [];
  const passive: string[] = [];
  const forms: string[] = [];
  const insecure = (url: string | undefined): url is string => !!url && /^\s*http:\/\//i.test(url);
  for (const tag of context.html.tags) {
    const attr = (name: string) => tag.attributes.get(name);
    const activeAttribute = ACTIVE_TAGS[tag.name];
    const passiveAttribute = PASSIVE_TAGS[tag.name];
    if (activeAttribute && insecure(attr(activeAttribute)))
      active.push(`<${tag.name}> ${attr(activeAttribute)}`);
    else if (passiveAttribute && insecure(attr(passiveAttribute)))
      passive.push(`<${tag.name}> ${attr(passiveAttribute)}`);
    else if (tag.name === "link" && insecure(attr("href"))) {
      const rels = (attr("rel") ?? "").toLowerCase().split(/\s+/);
      if (rels.some((rel) => ACTIVE_LINK_RELS.includes(rel)))
        active.push(`<link rel="${attr("rel")}"> ${attr("href")}`);
      else if (rels.some((rel) => rel.includes("icon")))
        passive.push(`<link rel="${attr("rel")}"> ${attr("href")}`);
    } else if (tag.name === "form" && insecure(attr("action"))) forms.push(attr("action") ?? "");
    if (tag.name === "img" || tag.name === "source") {
      const srcset = attr("srcset");
      if (srcset && /(^|,)\s*http:\/\//i.test(srcset)) passive.push(`<${tag.name} srcset> ${srcset}`);
    }
  }
  const sample = (list: string[]) =>
    list.slice(0, 5).join("; ") + (list.length > 5 ? `; and ${list.length - 5} more` : "");
  const category = CATEGORY.mixedContent;
  const fix =
    "Change the URLs to https:// (or root-relative), and add `upgrade-insecure-requests` to the Content-Security-Policy as a safety net.";
  const issues: AuditIssue[] = [];
  if (active.length > 0)
    issues.push({
      id: "mixed-content-active",
      title: "HTTPS page loads scripts, styles or frames over HTTP",
      severity: "high",
      category,
      description: `Browsers block these, breaking the page; where they load, a network attacker can rewrite them and control the page: ${sample(active)}.`,
      remediation: fix,
    });
  if (forms.length > 0)
    issues.push({
      id: "mixed-content-form",
      title: "Form submits over HTTP",
      severity: "high",
      category,
      description: `Data entered in the form is sent unencrypted: ${sample(forms)}.`,
      remediation: "Point the form's action at an https:// URL (or a relative path).",
    });
  if (passive.length > 0)
    issues.push({
      id: "mixed-content-passive",
      title: "HTTPS page loads images or media over HTTP",
      severity: "medium",
      category,
      description: `These can be seen and replaced by a network attacker, and browsers mark the page as not fully secure: ${sample(passive)}.`,
      remediation: fix,
    });
  return issues;
}

/**
 * The HTTPS probe failed, yet the HTTP address redirected to an HTTPS page that answered: say what
 * happened (that page was graded, its HSTS read) rather than "not available over HTTPS".
 */
export function httpsViaRedirectIssues(input: ScanInput, context: ObservatoryContext): AuditIssue[] {
  if (!isFailure(input.https) || !context.httpsResponse) return [];
  const httpStart = chainOf(input.http)?.hops[0]?.url ?? "";
  const httpsStart = new URL(input.url);
  httpsStart.protocol = "https:";
  if (new URL(input.url).protocol === "http:") httpsStart.port = "";
  return [
    {
      id: "https-only-via-redirect",
      title: "HTTPS reached only through the HTTP redirect",
      severity: "low",
      category: CATEGORY.transport,
      description: `${quoted(httpsStart.href)} could not be fetched (${quoted(failureText(input.https))}), but ${quoted(httpStart)} redirects to ${quoted(context.httpsResponse.url)}, which answered over HTTPS: that page was graded and its Strict-Transport-Security header read.`,
      remediation: `Serve HTTPS at ${quoted(httpsStart.href)} too (it may simply redirect to ${quoted(context.httpsResponse.url)}), so visitors and browsers that go straight to HTTPS reach the site.`,
    },
  ];
}

export function extraIssues(input: ScanInput, context: ObservatoryContext, now: Date): AuditIssue[] {
  return [
    ...httpsViaRedirectIssues(input, context),
    ...tlsIssues(context),
    ...mixedContentIssues(context),
    ...disclosureIssues(context),
    ...coopIssues(context),
    ...securityTxtIssues(input, now),
  ];
}
