// Cookies test (reference: src/analyzer/tests/cookies.js): every cookie set while loading the page
// must be Secure; session and login cookies must also be HttpOnly; SameSite must be valid, and
// anti-CSRF cookies must carry it. The worst finding decides the result.

import type { AuditIssue, FetchedResponse, ScanInput } from "../audit-types.ts";
import {
  CATEGORY,
  chainOf,
  headerValues,
  type ObservatoryContext,
  quoted,
  type TestOutcome,
  verdict,
} from "./context.ts";
import { analyseHsts, hstsPasses } from "./hsts.ts";
import type { ObservatoryResult } from "./score.ts";

export type ParsedCookie = {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  /** The SameSite value as sent ("" when the attribute has no value), null when absent. */
  sameSite: string | null;
  /** Set over plain HTTP, where a browser refuses the Secure flag. */
  overHttp: boolean;
};

// Heroku's load-balancer affinity cookie is outside the site owner's control; the reference skips it.
const IGNORED_COOKIES = new Set(["heroku-session-affinity"]);

export function parseSetCookie(header: string, overHttp = false): ParsedCookie | null {
  const [pair = "", ...attributes] = header.split(";");
  const equals = pair.indexOf("=");
  const name = (equals === -1 ? pair : pair.slice(0, equals)).trim();
  if (!name) return null;
  const cookie: ParsedCookie = { name, secure: false, httpOnly: false, sameSite: null, overHttp };
  for (const attribute of attributes) {
    const [key = "", ...rest] = attribute.split("=");
    const value = rest.join("=").trim();
    switch (key.trim().toLowerCase()) {
      case "secure":
        cookie.secure = true;
        break;
      case "httponly":
        cookie.httpOnly = true;
        break;
      case "samesite":
        cookie.sameSite = value;
        break;
    }
  }
  return cookie;
}

/** Cookies from every hop of the graded chain, as a browser's cookie jar would collect them. */
export function collectCookies(hops: readonly FetchedResponse[]): ParsedCookie[] {
  const cookies = hops.flatMap((hop) => {
    const overHttp = hop.url.startsWith("http:");
    return headerValues(hop, "set-cookie")
      .map((header) => parseSetCookie(header, overHttp))
      .filter((cookie): cookie is ParsedCookie => cookie !== null && !IGNORED_COOKIES.has(cookie.name));
  });
  // A later Set-Cookie of the same name replaces the earlier one in the browser's jar (and in the
  // reference's): only the cookie that stays is judged.
  return [...new Map(cookies.map((cookie) => [cookie.name, cookie])).values()];
}

// Best to worst; a finding replaces the current result only if it is worse (reference `goodness`).
const BEST_TO_WORST: ObservatoryResult[] = [
  "cookies-without-secure-flag-but-protected-by-hsts",
  "cookies-without-secure-flag",
  "cookies-session-without-secure-flag-but-protected-by-hsts",
  "cookies-samesite-flag-invalid",
  "cookies-anticsrf-without-samesite-flag",
  "cookies-session-without-httponly-flag",
  "cookies-session-without-secure-flag",
];

const isSession = (name: string) => ["login", "sess"].some((part) => name.toLowerCase().includes(part));
const isAntiCsrf = (name: string) => name.toLowerCase().includes("csrf");

const DESCRIPTIONS: Partial<Record<ObservatoryResult, string>> = {
  "cookies-not-found": "No cookies detected.",
  "cookies-secure-with-httponly-sessions-and-samesite":
    "All cookies use Secure, session cookies use HttpOnly, and SameSite is set.",
  "cookies-secure-with-httponly-sessions":
    "All cookies use Secure and session cookies use HttpOnly, but SameSite is missing.",
  "cookies-without-secure-flag-but-protected-by-hsts":
    "Cookies set without Secure, but HSTS prevents sending them over HTTP.",
  "cookies-session-without-secure-flag-but-protected-by-hsts":
    "Session cookie set without Secure, but HSTS prevents sending it over HTTP.",
  "cookies-without-secure-flag": "Cookies set without the Secure flag or over HTTP.",
  "cookies-samesite-flag-invalid": "SameSite set to an invalid value, or SameSite=None without Secure.",
  "cookies-anticsrf-without-samesite-flag": "Anti-CSRF cookie set without SameSite.",
  "cookies-session-without-httponly-flag": "Session cookie set without HttpOnly.",
  "cookies-session-without-secure-flag": "Session cookie set without Secure or over HTTP.",
};

export function cookiesTest(input: ScanInput, context: ObservatoryContext): TestOutcome {
  // The graded page's hops, plus /robots.txt on the same origin as the reference gathers: a site
  // may set its session cookie on every path but serve its home page from a cache.
  const cookies = collectCookies([
    ...context.hops,
    ...((input.robotsTxt && chainOf(input.robotsTxt)?.hops) || []),
  ]);
  const hsts = hstsPasses(analyseHsts(context));
  const category = CATEGORY.cookies;
  let worst: ObservatoryResult | null = null;
  const worsen = (result: ObservatoryResult) => {
    if (worst === null || BEST_TO_WORST.indexOf(result) > BEST_TO_WORST.indexOf(worst)) worst = result;
  };
  const names = {
    insecure: [] as string[],
    /** Secure flag sent, but over plain HTTP: the browser drops them (RFC 6265bis section 5.6). */
    secureOverHttp: [] as string[],
    httpOnly: [] as string[],
    sameSite: [] as string[],
    csrf: [] as string[],
  };

  let missingSameSite = false;
  for (const cookie of cookies) {
    const secure = cookie.secure && !cookie.overHttp;
    const sameSite = cookie.sameSite?.toLowerCase() ?? null;
    if (sameSite !== null && !["lax", "strict", "none"].includes(sameSite)) {
      worsen("cookies-samesite-flag-invalid");
      names.sameSite.push(cookie.name);
    }
    // Browsers reject SameSite=None without Secure.
    if (sameSite === "none" && !secure) {
      worsen("cookies-samesite-flag-invalid");
      names.sameSite.push(cookie.name);
    }
    if (!secure) {
      worsen(hsts ? "cookies-without-secure-flag-but-protected-by-hsts" : "cookies-without-secure-flag");
      (cookie.secure ? names.secureOverHttp : names.insecure).push(cookie.name);
    }
    if (isAntiCsrf(cookie.name) && !sameSite) {
      worsen("cookies-anticsrf-without-samesite-flag");
      names.csrf.push(cookie.name);
    }
    if (isSession(cookie.name) && !secure)
      worsen(
        hsts
          ? "cookies-session-without-secure-flag-but-protected-by-hsts"
          : "cookies-session-without-secure-flag",
      );
    if (isSession(cookie.name) && !cookie.httpOnly) {
      worsen("cookies-session-without-httponly-flag");
      names.httpOnly.push(cookie.name);
    }
    if (!sameSite) missingSameSite = true;
  }

  let result: ObservatoryResult;
  if (cookies.length === 0) result = "cookies-not-found";
  else if (worst !== null) result = worst;
  else
    result = missingSameSite
      ? "cookies-secure-with-httponly-sessions"
      : "cookies-secure-with-httponly-sessions-and-samesite";
  const pass = [
    "cookies-not-found",
    "cookies-secure-with-httponly-sessions-and-samesite",
    "cookies-secure-with-httponly-sessions",
  ].includes(result);

  const list = (items: string[]) => quoted([...new Set(items)].join(", "));
  const issues: AuditIssue[] = [];
  const sessionInsecure = cookies.some((c) => isSession(c.name) && !(c.secure && !c.overHttp));
  if (names.insecure.length > 0)
    issues.push({
      id: "cookies-without-secure",
      title: "Cookies without the Secure flag",
      severity: sessionInsecure && !hsts ? "high" : hsts ? "low" : "medium",
      category,
      description: `${list(names.insecure)} can be sent over plain HTTP${hsts ? " (HSTS currently prevents it)" : ""}, where anyone on the network can read or steal them.`,
      remediation:
        "Add `Secure` to every Set-Cookie, for example `Set-Cookie: session=…; Path=/; Secure; HttpOnly; SameSite=Lax`, and serve the site only over HTTPS with HSTS.",
    });
  if (names.secureOverHttp.length > 0) {
    const sessionOverHttp = names.secureOverHttp.some(isSession);
    issues.push({
      id: "cookies-secure-over-http",
      title: "Secure cookies set over plain HTTP",
      severity: sessionOverHttp ? "high" : "medium",
      category,
      description: `${list(names.secureOverHttp)} ${names.secureOverHttp.length > 1 ? "carry" : "carries"} the Secure flag but ${names.secureOverHttp.length > 1 ? "were" : "was"} set over plain HTTP: browsers drop a Secure cookie set that way (RFC 6265bis section 5.6), and its value has already crossed the network in clear text, where anyone on the way can read it.`,
      remediation:
        "Set cookies only in HTTPS responses: redirect every plain HTTP request to HTTPS before any cookie is set, and send HSTS.",
    });
  }
  if (names.httpOnly.length > 0)
    issues.push({
      id: "cookies-session-without-httponly",
      title: "Session cookie readable by JavaScript",
      severity: "high",
      category,
      description: `${list(names.httpOnly)} looks like a session or login cookie but lacks HttpOnly, so any XSS can steal the session.`,
      remediation:
        "Add `HttpOnly` to session cookies: `Set-Cookie: session=…; Path=/; Secure; HttpOnly; SameSite=Lax`.",
    });
  if (names.sameSite.length > 0)
    issues.push({
      id: "cookies-samesite-invalid",
      title: "Invalid SameSite attribute",
      severity: "medium",
      category,
      description: `${list(names.sameSite)} has a SameSite value other than Strict, Lax or None, or SameSite=None without Secure; browsers may drop the cookie or treat it unexpectedly.`,
      remediation:
        "Use `SameSite=Lax` (or `Strict`); only use `SameSite=None; Secure` for cookies that must be sent cross-site.",
    });
  if (names.csrf.length > 0)
    issues.push({
      id: "cookies-csrf-without-samesite",
      title: "Anti-CSRF cookie without SameSite",
      severity: "medium",
      category,
      description: `${list(names.csrf)} is an anti-CSRF token without SameSite, weakening the protection it exists for.`,
      remediation: "Add `SameSite=Strict` (or `Lax`) to the anti-CSRF cookie.",
    });
  if (result === "cookies-secure-with-httponly-sessions")
    issues.push({
      id: "cookies-without-samesite",
      title: "Cookies without SameSite",
      severity: "low",
      category,
      description:
        "Some cookies do not set SameSite; browsers default to Lax, but setting it explicitly earns the Observatory's bonus and protects older browsers.",
      remediation: "Add `SameSite=Lax` (or `Strict`) to every Set-Cookie.",
    });

  return { test: verdict("cookies", result, pass, DESCRIPTIONS[result] ?? result), issues };
}
