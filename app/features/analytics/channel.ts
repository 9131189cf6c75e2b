import type { Channel } from "#app/lib/attribution.ts";

// The channel of a visit, from its first page view (issue 12). The rules, in order; the first that
// matches wins (the README's "Analytics" section lists them too; keep both in step):
//
//  1. Paid: a paid click id was present (gclid, fbclid, msclkid), or utm_medium is cpc, ppc, cpm,
//     cpv, display, banner, retargeting, or starts with "paid" (paid, paidsearch, paid_social…).
//  2. Email: utm_medium is email, e-mail or newsletter.
//  3. Social: utm_medium is social, social-media, social_network, sm, or the referrer is a known
//     social network (SOCIAL_HOSTS).
//  4. Campaign: any other UTM value (utm_source, utm_medium or utm_campaign) was present.
//  5. Organic search: the referrer is a known search engine (SEARCH_HOSTS, SEARCH_PATTERNS).
//  6. Referral: any other site referred the view.
//  7. Direct: no UTM, no click id, no other site (typed, bookmarked, or the referrer withheld).
//
// UTM values are compared case-insensitively; hosts match themselves and their subdomains
// (`l.facebook.com` is facebook.com). Explicit tagging beats the referrer: a newsletter link opened
// in a webmail is Email, not Referral. "Unknown" is never the result of these rules: it is for a
// lead with no visit to classify (lead-attribution.server.ts).

export type VisitSource = {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  paidClick: boolean;
  /** The referring host; with `referrerPath` null it is this site's own (an internal move). */
  referrerHost: string | null;
  /** Set for referrals from other sites only (page-view.ts). */
  referrerPath: string | null;
};

const PAID_MEDIUMS = new Set(["cpc", "ppc", "cpm", "cpv", "display", "banner", "retargeting"]);
const EMAIL_MEDIUMS = new Set(["email", "e-mail", "newsletter"]);
const SOCIAL_MEDIUMS = new Set([
  "social",
  "social-media",
  "social_media",
  "social-network",
  "social_network",
  "sm",
]);

export const SOCIAL_HOSTS = [
  "facebook.com",
  "fb.com",
  "fb.me",
  "instagram.com",
  "linkedin.com",
  "lnkd.in",
  "twitter.com",
  "t.co",
  "x.com",
  "youtube.com",
  "youtu.be",
  "reddit.com",
  "pinterest.com",
  "tiktok.com",
  "threads.net",
  "bsky.app",
  "mastodon.social",
  "whatsapp.com",
  "wa.me",
  "t.me",
  "xing.com",
];

export const SEARCH_HOSTS = [
  "bing.com",
  "duckduckgo.com",
  "search.yahoo.com",
  "ecosia.org",
  "baidu.com",
  "search.brave.com",
  "startpage.com",
  "qwant.com",
  "ask.com",
  "kagi.com",
  "seznam.cz",
  "naver.com",
];
/** Search engines on many country domains: google.com, google.co.uk, yandex.ru… */
const SEARCH_PATTERNS = [/(^|\.)google\.[a-z]{2,3}(\.[a-z]{2})?$/, /(^|\.)yandex\.[a-z]{2,3}(\.[a-z]{2})?$/];

function matchesHost(host: string, list: readonly string[]): boolean {
  return list.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

export function isSearchEngine(host: string): boolean {
  const lower = host.toLowerCase();
  return matchesHost(lower, SEARCH_HOSTS) || SEARCH_PATTERNS.some((pattern) => pattern.test(lower));
}

export function isSocialNetwork(host: string): boolean {
  return matchesHost(host.toLowerCase(), SOCIAL_HOSTS);
}

/** The channel of a visit by the rules above. */
export function channelOf(visit: VisitSource): Channel {
  const medium = visit.utmMedium?.trim().toLowerCase() ?? "";
  // An internal move (this site's own host, no path) is no referrer.
  const referrer =
    visit.referrerHost && visit.referrerPath !== null ? visit.referrerHost.toLowerCase() : null;
  if (visit.paidClick || PAID_MEDIUMS.has(medium) || medium.startsWith("paid")) return "Paid";
  if (EMAIL_MEDIUMS.has(medium)) return "Email";
  if (SOCIAL_MEDIUMS.has(medium) || (referrer !== null && isSocialNetwork(referrer))) return "Social";
  if (visit.utmSource || visit.utmMedium || visit.utmCampaign) return "Campaign";
  if (referrer !== null && isSearchEngine(referrer)) return "Organic search";
  if (referrer !== null) return "Referral";
  return "Direct";
}
