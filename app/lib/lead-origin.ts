// How a lead came in (issue 32): through the website (its forms, and the public API call those forms
// make, without a key), through an API key, added by hand by staff (a call, an event...), or in a CSV
// import. Only website leads are conversions in the analytics; the others are counted apart, by
// source. Written by features/leads (the lead's `source`, `api_key_id` and the import's records),
// read by features/leads (the list's Source column, the lead page) and features/analytics (the
// report): only the shared, pure part lives here, the SQL in lead-origin.server.ts.

export const LEAD_ORIGINS = ["website", "api_key", "added_by_staff", "imported"] as const;
export type LeadOrigin = (typeof LEAD_ORIGINS)[number];

/**
 * Where a lead staff add by hand or import came from, stored on its `source` as `staff:<slug>`: the
 * prefix keeps them apart from "form", "api" and the API keys' names, which are free text.
 */
export const STAFF_SOURCES = {
  phone_call: "Phone call",
  event: "Event",
  referral: "Referral",
  email: "Email",
  other: "Other",
} as const;
export type StaffSource = keyof typeof STAFF_SOURCES;

export const STAFF_SOURCE_PREFIX = "staff:";

/** "Phone call" for `staff:phone_call`; undefined for a lead that came through the site or the API. */
export function staffSourceLabel(stored: string): string | undefined {
  if (!stored.startsWith(STAFF_SOURCE_PREFIX)) return undefined;
  const slug = stored.slice(STAFF_SOURCE_PREFIX.length);
  return Object.hasOwn(STAFF_SOURCES, slug) ? STAFF_SOURCES[slug as StaffSource] : undefined;
}

/** A website lead: the site's forms (`form`) or the public API without a key (`api`). */
export function isWebsiteSource(source: string, apiKeyId: number | null): boolean {
  return apiKeyId === null && (source === "form" || source === "api");
}

/**
 * How a lead came in, in words, for the list's Source column and the analytics' line of leads from
 * outside the website: "Website form", "Public API" (no key), "API key “HubSpot”", "Imported: Event",
 * "Added by staff: Phone call".
 */
export function leadOriginLabel(origin: LeadOrigin, source: string): string {
  if (origin === "website") return source === "form" ? "Website form" : "Public API";
  if (origin === "api_key") return `API key “${source}”`;
  const kind = staffSourceLabel(source);
  const head = origin === "imported" ? "Imported" : "Added by staff";
  return kind ? `${head}: ${kind}` : head;
}
