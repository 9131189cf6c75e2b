// A lead's attribution (issue 12): where the visit that ended in the lead came from. Written by
// features/analytics (which links a lead to its visitor's page views), read by features/leads
// (detail page, list filters, CSV, API). Only the shared, pure part lives here.

/**
 * The channels, in the order the rules in features/analytics/channel.ts try them. "Unknown": no
 * page view of the same visitor that day could be linked to the lead (never a guess).
 */
export const CHANNELS = [
  "Direct",
  "Organic search",
  "Referral",
  "Social",
  "Email",
  "Paid",
  "Campaign",
  "Unknown",
] as const;
export type Channel = (typeof CHANNELS)[number];
export const UNKNOWN_CHANNEL: Channel = "Unknown";

/** The `channel` filter's values in URLs: `organic-search` for "Organic search", and so on. */
export function channelSlug(channel: Channel): string {
  return channel.toLowerCase().replace(/ /g, "-");
}

/** The channel a URL value names, or undefined. */
export function channelFromSlug(slug: string): Channel | undefined {
  return CHANNELS.find((channel) => channelSlug(channel) === slug.toLowerCase());
}

/**
 * `pending`: the lead is younger than the settling time and its visitor's page views may still be
 * on their way; `linked`: its visit was found; `unknown`: final, no visit could be linked.
 */
export type AttributionStatus = "pending" | "linked" | "unknown";

/** As `GET /api/admin/leads/:id` returns it (`attribution`). */
export type LeadAttribution = {
  status: AttributionStatus;
  /** The path of the visitor's first page view of the day (before the lead). */
  landingPage: string | null;
  /** The other site that referred that first view, `host/path` (never a query); null when none. */
  referrer: string | null;
  /** One of CHANNELS; null while pending. */
  channel: Channel | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  /** Page views of the visitor that day, up to the submission, the landing page included. */
  pagesBeforeSubmit: number | null;
  /** From the first page view to the submission. */
  secondsToSubmit: number | null;
};

/** The row of `lead_attributions` as stored (the columns the readers select). */
export type LeadAttributionRow = {
  status: string;
  landingPage: string | null;
  referrerHost: string | null;
  referrerPath: string | null;
  channel: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  pagesBeforeSubmit: number | string | null;
  secondsToSubmit: number | string | null;
};

/** The columns of `lead_attributions` LeadAttributionRow reads. */
export const ATTRIBUTION_COLUMNS = [
  "status",
  "landingPage",
  "referrerHost",
  "referrerPath",
  "channel",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "utmTerm",
  "utmContent",
  "pagesBeforeSubmit",
  "secondsToSubmit",
] as const;

const UNKNOWN: LeadAttribution = {
  status: "unknown",
  landingPage: null,
  referrer: null,
  channel: UNKNOWN_CHANNEL,
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
  pagesBeforeSubmit: null,
  secondsToSubmit: null,
};

/** A stored row as the API shows it; no row (a lead from before attribution) is Unknown. */
export function toLeadAttribution(row: LeadAttributionRow | undefined | null): LeadAttribution {
  if (!row) return UNKNOWN;
  const status: AttributionStatus =
    row.status === "linked" || row.status === "pending" ? row.status : "unknown";
  if (status === "unknown") return UNKNOWN;
  const number = (value: number | string | null) => (value === null ? null : Number(value));
  const channel = (CHANNELS as readonly string[]).includes(row.channel ?? "")
    ? (row.channel as Channel)
    : null;
  return {
    status,
    landingPage: row.landingPage,
    referrer: row.referrerHost ? `${row.referrerHost}${row.referrerPath ?? ""}` : null,
    channel: status === "pending" ? null : (channel ?? UNKNOWN_CHANNEL),
    utmSource: row.utmSource,
    utmMedium: row.utmMedium,
    utmCampaign: row.utmCampaign,
    utmTerm: row.utmTerm,
    utmContent: row.utmContent,
    pagesBeforeSubmit: number(row.pagesBeforeSubmit),
    secondsToSubmit: number(row.secondsToSubmit),
  };
}
