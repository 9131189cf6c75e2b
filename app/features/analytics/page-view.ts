import type { DeviceClass } from "./user-agent.ts";
import { describeUserAgent } from "./user-agent.ts";

// Which requests are page views, and what a page view keeps (issue 12, ADR 014). Pure functions of
// the request: the server (server/http-server.ts) asks `shouldCount` before answering and
// `describePageView` once it knows the answer was a public page (prerendered, rendered or a 404).

/** The parts of a request the classifier reads; Node's IncomingMessage has this shape. */
export type PageRequest = {
  method?: string;
  /** The origin-form target, path and query (`/blog?utm_source=x`). */
  url?: string;
  headers: Record<string, string | string[] | undefined>;
};

/** A page view as it is stored, but for the visitor id (page-view-writer.server.ts adds it). */
export type PageView = {
  occurredAt: string;
  path: string;
  referrerHost: string | null;
  referrerPath: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  paidClick: boolean;
  device: DeviceClass;
  browser: string;
  isNotFound: boolean;
};

// What a visitor chooses (issue 22) is cut before it is stored, after trimming and removing control
// characters: every value of a row at 100 characters keeps it under about 1 KB with its indexes.
/** Each UTM value is cut to this many characters. */
export const MAX_UTM_LENGTH = 100;
/** The page's path and the referrer's path are cut to this many characters (the site's are under 80). */
export const MAX_PATH_LENGTH = 100;
/** The referrer's host is cut to this many characters. */
export const MAX_HOST_LENGTH = 100;
// C0 and C1 controls, DEL among them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

export const UTM_PARAMETERS = [
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
] as const;
/** Click ids ad networks append to paid clicks: only their presence is kept, never a value. */
export const PAID_CLICK_IDS = ["gclid", "fbclid", "msclkid"] as const;

// Not pages: files (the build's assets, feeds, the sitemap, robots.txt, icons, the PDF) and the
// endpoints that are not public pages. Anything the server answers with something other than HTML is
// not counted either (it checks the answer), so these only spare the work.
const FILE_PATH =
  /\.(?:js|mjs|css|map|json|xml|txt|ico|png|jpe?g|gif|svg|webp|avif|woff2?|ttf|pdf|webmanifest)$/i;
// /healthz, /readyz and /metrics are the load balancers' and Prometheus's (issue 13, on main).
const EXCLUDED_PREFIXES = [
  "/assets/",
  "/admin",
  "/api",
  "/investor-deck-pdf",
  // A draft's private preview link (issue 24): sent for review, never a visitor's page.
  "/preview/",
  "/health",
  "/healthz",
  "/readyz",
  "/metrics",
];

function header(request: PageRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function pathOf(request: PageRequest): string {
  const url = request.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** True for a path that can be a public HTML page (SPEC section 2, or a 404 among them). */
export function isPagePath(path: string): boolean {
  if (path.endsWith(".data")) return false;
  if (FILE_PATH.test(path)) return false;
  for (const prefix of EXCLUDED_PREFIXES) {
    if (path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`)) return false;
  }
  return true;
}

/** True when the browser asked for this page ahead of a visit (prefetch, prerender, link preview). */
function isSpeculative(request: PageRequest): boolean {
  if (header(request, "sec-purpose") !== undefined) return true;
  const purpose = `${header(request, "purpose") ?? ""} ${header(request, "x-purpose") ?? ""} ${header(request, "x-moz") ?? ""}`;
  return /prefetch|prerender|preview/i.test(purpose);
}

/** True when the visitor asked not to be tracked: Global Privacy Control or Do Not Track. */
export function optedOut(request: PageRequest): boolean {
  return header(request, "sec-gpc")?.trim() === "1" || header(request, "dnt")?.trim() === "1";
}

/**
 * Whether this request is a page view to count, before knowing the answer: a GET (not HEAD) of a
 * path that can be a public page, from a browser that is not a bot, not a prefetch or prerender,
 * and without Sec-GPC: 1 or DNT: 1. `Sec-Fetch-*` headers are not required.
 */
export function shouldCount(request: PageRequest): boolean {
  if (request.method !== "GET") return false;
  if (!isPagePath(pathOf(request))) return false;
  if (optedOut(request) || isSpeculative(request)) return false;
  return !describeUserAgent(header(request, "user-agent")).bot;
}

/**
 * Trimmed, without control characters, cut to `max` characters (never through the middle of a
 * character outside the Basic Multilingual Plane); null when nothing is left.
 */
export function cleanValue(value: string | null, max: number): string | null {
  if (value === null) return null;
  let cleaned = value.replace(CONTROL_CHARACTERS, "").trim();
  if (cleaned.length > max) {
    const last = cleaned.charCodeAt(max - 1);
    cleaned = cleaned.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max).trim();
  }
  return cleaned === "" ? null : cleaned;
}

/**
 * The referring host, and its path for a referral from another site (never its query or fragment,
 * which can carry search terms or personal data). A same-site referrer is an internal move: the
 * site's own host, no path. Anything that is not an http(s) URL is no referrer.
 */
export function parseReferrer(
  referrer: string | undefined,
  ownHost: string,
): { referrerHost: string | null; referrerPath: string | null } {
  const none = { referrerHost: null, referrerPath: null };
  if (!referrer || referrer.length > 2048) return none;
  let parsed: URL;
  try {
    parsed = new URL(referrer);
  } catch {
    return none;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return none;
  const host = cleanValue(parsed.hostname.toLowerCase(), MAX_HOST_LENGTH);
  if (host === null) return none;
  if (host === ownHost.toLowerCase()) return { referrerHost: host, referrerPath: null };
  return { referrerHost: host, referrerPath: cleanValue(safeDecode(parsed.pathname), MAX_PATH_LENGTH) };
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * What is kept of a page view. `url` is the request's URL on this site (its host is the site's own,
 * for telling internal moves from referrals); `notFound` flags a 404.
 */
export function describePageView(
  request: PageRequest,
  url: URL,
  { notFound = false, now = new Date() }: { notFound?: boolean; now?: Date } = {},
): PageView {
  // Most views have no query: reading none skips building URLSearchParams (a share of a counted page's CPU).
  const params = url.search === "" ? undefined : url.searchParams;
  const utm = (name: (typeof UTM_PARAMETERS)[number]) =>
    params ? cleanValue(params.get(name), MAX_UTM_LENGTH) : null;
  const agent = describeUserAgent(header(request, "user-agent"));
  return {
    occurredAt: now.toISOString(),
    path: cleanValue(safeDecode(url.pathname), MAX_PATH_LENGTH) ?? "/",
    ...parseReferrer(header(request, "referer"), url.hostname),
    utmSource: utm("utm_source"),
    utmMedium: utm("utm_medium"),
    utmCampaign: utm("utm_campaign"),
    utmTerm: utm("utm_term"),
    utmContent: utm("utm_content"),
    paidClick: params !== undefined && PAID_CLICK_IDS.some((name) => params.has(name)),
    device: agent.device,
    browser: agent.browser,
    isNotFound: notFound,
  };
}
