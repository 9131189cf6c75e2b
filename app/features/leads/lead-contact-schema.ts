import { z } from "zod";
import {
  DemoRequestSchema,
  type FieldErrors,
  fieldErrors,
  InvestorInterestSchema,
  MESSAGES,
} from "./lead-schema.ts";

// Issue 35: what staff may correct on a lead they work: every field the form it came from collects,
// by that form's own rules and messages (lead-schema.ts), so a lead staff edited is one the form
// could have sent. Used by the page's action and PATCH /api/admin/leads/:id.

/** The fields a lead's page and the API edit, as the API names them. */
export const CONTACT_FIELDS = ["fullName", "email", "company", "phone", "message"] as const;
export const INVESTOR_FIELDS = ["investorType", "otherDetails"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number] | (typeof INVESTOR_FIELDS)[number];

export type InvestorTypes = { angel: boolean; vc: boolean; introducer: boolean; other: boolean };

/** A validated edit: only the fields sent, each cleaned as the form cleans it. */
export type ContactEdit = {
  fullName?: string;
  email?: string;
  company?: string;
  phone?: string;
  message?: string | null;
  investorType?: InvestorTypes;
  otherDetails?: string | null;
};

const demo = DemoRequestSchema.shape;
const investor = InvestorInterestSchema.in.shape;

const demoEdit = z.object({
  fullName: demo.fullName.optional(),
  email: demo.email.optional(),
  company: demo.company.optional(),
  phone: demo.phone.optional(),
  message: demo.message,
});

const investorEdit = z.object({
  fullName: investor.fullName.optional(),
  email: investor.email.optional(),
  company: investor.company.optional(),
  phone: investor.phone.optional(),
  message: investor.message,
  investorType: z
    .object(
      {
        angel: z.boolean(MESSAGES.invalid),
        vc: z.boolean(MESSAGES.invalid),
        introducer: z.boolean(MESSAGES.invalid),
        other: z.boolean(MESSAGES.invalid),
      },
      MESSAGES.invalid,
    )
    .optional(),
  otherDetails: investor.otherDetails,
});

/**
 * Validates an edit of a lead of `requestType` by its form's rules. Fields left out are not changed;
 * `message` and `otherDetails` sent empty or null clear them. Unknown fields are ignored (the API's
 * PATCH also carries status, owner and spam).
 */
export function parseContactEdit(
  requestType: "demo" | "investor",
  body: Record<string, unknown>,
): { success: true; data: ContactEdit } | { success: false; errors: FieldErrors } {
  const schema = requestType === "investor" ? investorEdit : demoEdit;
  const result = schema.safeParse(body);
  if (!result.success) return { success: false, errors: fieldErrors(result.error) };
  const edit: ContactEdit = {};
  const fields: readonly string[] =
    requestType === "investor" ? [...CONTACT_FIELDS, ...INVESTOR_FIELDS] : CONTACT_FIELDS;
  for (const field of fields)
    if (field in body && body[field] !== undefined)
      (edit as Record<string, unknown>)[field] = (result.data as Record<string, unknown>)[field];
  return { success: true, data: edit };
}

/** True when the body names any field parseContactEdit reads. */
export function hasContactFields(body: Record<string, unknown>): boolean {
  return [...CONTACT_FIELDS, ...INVESTOR_FIELDS].some((field) => body[field] !== undefined);
}

/**
 * The edit form as it arrives (with or without JavaScript): every field of the lead's kind is in it,
 * the investor types as ticked boxes.
 */
export function contactEditFromForm(
  requestType: "demo" | "investor",
  form: URLSearchParams,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of CONTACT_FIELDS) body[field] = form.get(field) ?? "";
  if (requestType === "investor") {
    body.investorType = {
      angel: form.has("investorAngel"),
      vc: form.has("investorVc"),
      introducer: form.has("investorIntroducer"),
      other: form.has("investorOther"),
    };
    body.otherDetails = form.get("otherDetails") ?? "";
  }
  return body;
}

/** The refusal for an address a person asked to be erased under (its suppression record). */
export const ERASED_EMAIL_MESSAGE =
  "This address belongs to a person erased on request. If they got in touch again, add them as a new lead.";

/**
 * What a person's erasure leaves on the timeline of a lead that carried their address before staff
 * replaced it (ADR 044): the change stays (the lead is another person's now), their address does not.
 */
export const ERASED_VALUE = "(erased on request)";

/**
 * What a subject-access export shows for the other side of such a change: the lead's address now (or
 * before), another person's data, not the requester's.
 */
export const WITHHELD_VALUE = "(withheld: another person's)";

/** The name of the edit form's hidden field holding the values it opened with (contactSnapshot). */
export const CONTACT_WAS_FIELD = "was";

/** A short fingerprint of a field's value as the form shows it (FNV-1a, 32 bits): small to carry. */
function fingerprint(value: unknown): string {
  // The ticks by name, whatever order their object was built in.
  const text = JSON.stringify(
    value && typeof value === "object"
      ? Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))
      : (value ?? ""),
  );
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * A lead's editable fields as the edit form opens with them (text, "" for none; the types as
 * ticks), each as its fingerprint: the form carries it back (a few bytes, where the values
 * themselves could double a post of a 5,000-character message).
 */
export function contactSnapshot(lead: {
  fullName: string;
  email: string;
  company: string;
  phone: string;
  message: string | null;
  investorType?: InvestorTypes;
  otherDetails?: string | null;
}): Record<string, string> {
  return {
    fullName: fingerprint(lead.fullName),
    email: fingerprint(lead.email),
    company: fingerprint(lead.company),
    phone: fingerprint(lead.phone),
    message: fingerprint(lead.message ?? ""),
    investorType: fingerprint(lead.investorType ?? null),
    otherDetails: fingerprint(lead.otherDetails ?? ""),
  };
}

/**
 * Only what the person changed: the edit form's fields that differ from the values it opened with
 * (`was`, a contactSnapshot), so two people editing one lead at once each write their own fields and
 * neither puts back what the other just corrected (the last one to save a field still wins it, on
 * the timeline for all to see). The investor types and their details go together, as their rules
 * read both. Without `was` (an older form), every field is sent, as before.
 */
export function changedContactFields(
  body: Record<string, unknown>,
  was: Record<string, unknown> | null,
): Record<string, unknown> {
  if (!was) return body;
  const differs = (field: string) => fingerprint(body[field] ?? "") !== was[field];
  const changed: Record<string, unknown> = {};
  for (const field of CONTACT_FIELDS) if (field in body && differs(field)) changed[field] = body[field];
  if ("investorType" in body && (differs("investorType") || differs("otherDetails"))) {
    changed.investorType = body.investorType;
    changed.otherDetails = body.otherDetails;
  }
  return changed;
}

/** The form's `was` field read back: a snapshot, or null when it is missing or not one. */
export function parseContactWas(raw: string | null): Record<string, unknown> | null {
  if (!raw || raw.length > 1_000) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
