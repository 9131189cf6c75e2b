import type { LeadOrigin } from "#app/lib/lead-origin.ts";
import type { LeadStatus } from "../lead-repository.server.ts";
import { staffSourceLabel } from "../lead-sources.ts";

// How the back office shows a lead's status (SPEC sections 4 and 9), on the server and in the
// browser alike.

/**
 * Badge colours: new blue, contacted yellow, qualified green, unqualified red, anything else grey.
 * Each pair is dark text on a pale tint, above the 4.5:1 WCAG AA asks of small text.
 */
export const STATUS_BADGE_CLASS: Record<LeadStatus, string> = {
  new: "bg-blue-100 text-blue-900",
  contacted: "bg-yellow-100 text-yellow-900",
  qualified: "bg-green-100 text-green-900",
  unqualified: "bg-red-100 text-red-900",
  customer: "bg-slate-200 text-slate-900",
};

const OTHER_BADGE_CLASS = "bg-slate-200 text-slate-900";

/** The five statuses in the dropdown's order (typed from the record, so a new status cannot be missed). */
export const LEAD_STATUS_OPTIONS = Object.keys(STATUS_BADGE_CLASS) as LeadStatus[];

export function statusBadgeClass(status: string): string {
  return STATUS_BADGE_CLASS[status as LeadStatus] ?? OTHER_BADGE_CLASS;
}

/** SPEC section 4: the first letter capitalised. */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/**
 * Where a lead came from, in words: "the website form on /demo", "the API", "the API key “HubSpot”",
 * "Phone call (added by staff)", "Event (imported from a file)" (with its `origin`, issue 32).
 */
export function sourceText(source: string, sourcePage: string | null, origin?: LeadOrigin): string {
  const staff = staffSourceLabel(source);
  if (staff) return `${staff} (${origin === "imported" ? "imported from a file" : "added by staff"})`;
  if (source === "form") return `the website form${sourcePage ? ` on ${sourcePage}` : ""}`;
  if (source === "api") return "the API";
  return `the API key “${source}”`;
}

/**
 * What a lead is, above its name (issue 32): a request the person sent ("Demo request", "Investor
 * interest": through the website or an integration's API key), or a lead staff brought in, whose
 * stored type is only the default (imports and the add-a-lead form have none to choose).
 */
export function leadKindLabel(origin: LeadOrigin, requestType: "demo" | "investor"): string {
  if (origin === "imported") return "Imported lead";
  if (origin === "added_by_staff") return "Lead added by staff";
  return requestType === "investor" ? "Investor interest" : "Demo request";
}
