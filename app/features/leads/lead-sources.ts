// Where a lead staff add by hand or import came from (issue 23). Stored on the lead's `source` as
// `staff:<slug>`: the prefix keeps them apart from "form", "api" and the API keys' names, which are
// free text. Shared by the forms, the API and the pages that show a lead's source.

export const STAFF_SOURCES = {
  phone_call: "Phone call",
  event: "Event",
  referral: "Referral",
  email: "Email",
  other: "Other",
} as const;

export type StaffSource = keyof typeof STAFF_SOURCES;
export const STAFF_SOURCE_SLUGS = Object.keys(STAFF_SOURCES) as [StaffSource, ...StaffSource[]];

const PREFIX = "staff:";

export function staffSourceValue(source: StaffSource): string {
  return `${PREFIX}${source}`;
}

/** "Phone call" for `staff:phone_call`; undefined for a lead that came through the site or the API. */
export function staffSourceLabel(stored: string): string | undefined {
  if (!stored.startsWith(PREFIX)) return undefined;
  const slug = stored.slice(PREFIX.length);
  return Object.hasOwn(STAFF_SOURCES, slug) ? STAFF_SOURCES[slug as StaffSource] : undefined;
}

export function isStaffSource(value: unknown): value is StaffSource {
  return typeof value === "string" && Object.hasOwn(STAFF_SOURCES, value);
}
