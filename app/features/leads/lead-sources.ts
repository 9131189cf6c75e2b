import { STAFF_SOURCE_PREFIX, STAFF_SOURCES, type StaffSource } from "#app/lib/lead-origin.ts";

// Where a lead staff add by hand or import came from (issue 23). Stored on the lead's `source` as
// `staff:<slug>`: the prefix keeps them apart from "form", "api" and the API keys' names, which are
// free text. Shared by the forms, the API and the pages that show a lead's source; the names live in
// lib/lead-origin.ts, which the analytics read too (issue 32).

export { STAFF_SOURCES, type StaffSource, staffSourceLabel } from "#app/lib/lead-origin.ts";

export const STAFF_SOURCE_SLUGS = Object.keys(STAFF_SOURCES) as [StaffSource, ...StaffSource[]];

export function staffSourceValue(source: StaffSource): string {
  return `${STAFF_SOURCE_PREFIX}${source}`;
}

export function isStaffSource(value: unknown): value is StaffSource {
  return typeof value === "string" && Object.hasOwn(STAFF_SOURCES, value);
}
