import { z } from "zod";
import { firstErrorPerField } from "#app/lib/field-errors.ts";
import { type FieldErrors, type LeadSubmission, parseLeadSubmission } from "./lead-schema.ts";
import { STAFF_SOURCE_SLUGS, type StaffSource } from "./lead-sources.ts";

// A lead staff add by hand (/admin/leads/new, POST /api/admin/leads): the public forms' fields with
// their rules and messages (lead-schema.ts), plus where it came from and who owns it. Used by the
// browser for instant feedback and by the server for the final word.

export const MANUAL_LEAD_MESSAGES = {
  source: "Choose where the lead came from",
  owner: "Choose a staff member (or Unassigned)",
} as const;

const ManualLeadExtrasSchema = z.object({
  source: z.enum(STAFF_SOURCE_SLUGS, MANUAL_LEAD_MESSAGES.source),
  // "" or absent: unassigned. The form posts ids as text, the API as numbers.
  ownerId: z
    .union([z.number(), z.string().regex(/^\d{0,15}$/), z.null()], MANUAL_LEAD_MESSAGES.owner)
    .optional()
    .transform((value) => (value === undefined || value === null || value === "" ? null : Number(value)))
    .refine(
      (value) => value === null || (Number.isSafeInteger(value) && value > 0),
      MANUAL_LEAD_MESSAGES.owner,
    ),
});

export type ManualLead = { submission: LeadSubmission; source: StaffSource; ownerId: number | null };

/** The lead's fields by the public forms' rules, then the source and owner; every field's first message. */
export function parseManualLead(
  body: unknown,
): { success: true; data: ManualLead } | { success: false; errors: FieldErrors } {
  const record = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const lead = parseLeadSubmission(record);
  const extras = ManualLeadExtrasSchema.safeParse(record);
  const errors: FieldErrors = lead.success ? {} : { ...lead.errors };
  if (!extras.success)
    for (const [field, message] of Object.entries(firstErrorPerField(extras.error)))
      errors[field] ??= message;
  if (!lead.success || !extras.success) return { success: false, errors };
  return {
    success: true,
    data: { submission: lead.data, source: extras.data.source, ownerId: extras.data.ownerId },
  };
}
