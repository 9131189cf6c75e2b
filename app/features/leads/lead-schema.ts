import { z } from "zod";
import { LEAD_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { firstErrorPerField } from "#app/lib/field-errors.ts";
import { POLICY_VERSION as LATEST_POLICY_CHANGE } from "#app/lib/site/privacy-changes.ts";
import { site } from "#app/lib/site/site.ts";
import { breaksTextRule, type TextRule } from "#app/lib/text-rules.ts";
import { INVESTOR_MESSAGE, LEAD_LIMITS } from "./lead-constants.ts";

export {
  HONEYPOT_FIELD,
  INVESTOR_MESSAGE,
  INVESTOR_TYPES,
  type InvestorTypeKey,
  LEAD_LIMITS,
} from "./lead-constants.ts";

// One definition of what a lead submission may contain, used by the browser (instant feedback) and
// by the server (the final word). Messages are SPEC section 5's; limits are ours (the spec has none)
// and generous enough for real names, companies and international phone numbers.

/** The JSON API refuses bodies larger than this before parsing them (issue 3). */
export const MAX_LEAD_BODY_BYTES = LEAD_BODY_LIMIT;

/** The privacy policy version shown under every form (SPEC section 9), stored with each lead. */
export const PRIVACY_NOTICE_VERSION = site.privacyPolicyVersion;
/** The date of the policy's latest change (its "Changes" section), stored with each lead as `policyVersion`. */
export const POLICY_VERSION = LATEST_POLICY_CHANGE;

export const MESSAGES = {
  fullNameRequired: "Please enter your full name",
  fullNameMin: "Full name must be at least 2 characters",
  companyRequired: "Please enter your company name",
  companyMin: "Company name must be at least 2 characters",
  email: "Please enter a valid email address",
  phone: "Please enter a valid phone number",
  tooLong: (max: number) => `Please use at most ${max} characters`,
  invalid: "Please check the highlighted fields",
} as const;

// Text is trimmed for validation and storage but otherwise stored exactly as entered; it is escaped
// wherever it is shown (React does so by default; CSV export neutralises formulas). A missing field
// gets the same message as an empty one; a value of the wrong type (a number, a list) the generic one.
// Control characters (and, in names, company and email, bidirectional overrides) are refused with the
// field's own message; only the message boxes may hold line breaks and tabs. Names and company are
// one line of words: a tab or a run of spaces in them (a paste from a spreadsheet, a double space)
// becomes one space instead of a refusal the visitor cannot see the reason for (issue 22).
const text = (max: number, missing: string = MESSAGES.invalid, rule: TextRule = "one-line-no-bidi") =>
  z
    .string({ error: (issue) => (issue.input === undefined ? missing : MESSAGES.invalid) })
    .refine((value) => !breaksTextRule(value, rule), { message: missing, abort: true })
    .trim()
    .max(max, MESSAGES.tooLong(max));

// Tabs and Unicode spaces (no-break, ideographic…), not line breaks: those stay refused in one-line fields.
const HORIZONTAL_WHITESPACE = /[\t\p{Zs}]+/gu;

/** A name or a company: `text`, with each run of tabs and spaces made one space before the checks. */
const words = (max: number, missing: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? missing : MESSAGES.invalid) })
    .overwrite((value) => value.replace(HORIZONTAL_WHITESPACE, " "))
    .refine((value) => !breaksTextRule(value, "one-line-no-bidi"), { message: missing, abort: true })
    .trim()
    .max(max, MESSAGES.tooLong(max));

// A pragmatic address check (what browsers accept for type=email, minus dotless domains).
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const email = text(LEAD_LIMITS.email, MESSAGES.email).regex(EMAIL_PATTERN, MESSAGES.email);

// Digits with the usual separators and an optional leading +; the minimum length is the spec's.
const phone = (min: number) =>
  text(LEAD_LIMITS.phone, MESSAGES.phone, "one-line")
    .min(min, MESSAGES.phone)
    .regex(/^\+?[0-9 ()./-]+$/, MESSAGES.phone)
    .refine((value) => (value.match(/\d/g)?.length ?? 0) >= Math.min(min, 5), MESSAGES.phone);

const optionalText = (max: number) =>
  z
    .union([text(max, MESSAGES.invalid, "multi-line"), z.null()], MESSAGES.invalid)
    .optional()
    .transform((value) => (value ? value : null));

const flag = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], MESSAGES.invalid)
  .optional()
  .transform((value) => value === true || value === "on" || value === "true");

/** SPEC sections 3 and 5: the demo request (both form variants send the same fields). */
export const DemoRequestSchema = z.object({
  fullName: words(LEAD_LIMITS.fullName, MESSAGES.fullNameRequired).min(1, MESSAGES.fullNameRequired),
  email,
  company: words(LEAD_LIMITS.company, MESSAGES.companyRequired).min(1, MESSAGES.companyRequired),
  phone: phone(7),
  message: optionalText(LEAD_LIMITS.message),
});

/** SPEC sections 3 and 5: the investor interest form. */
export const InvestorInterestSchema = z
  .object({
    fullName: words(LEAD_LIMITS.fullName, MESSAGES.fullNameMin).min(2, MESSAGES.fullNameMin),
    company: words(LEAD_LIMITS.company, MESSAGES.companyMin).min(2, MESSAGES.companyMin),
    email,
    phone: phone(5),
    investorType: z
      .object({ angel: flag, vc: flag, introducer: flag, other: flag }, MESSAGES.invalid)
      .optional()
      .transform((value) => value ?? { angel: false, vc: false, introducer: false, other: false }),
    otherDetails: optionalText(LEAD_LIMITS.otherDetails),
    // SPEC section 3: the landing page's form sends the fixed INVESTOR_MESSAGE; an integration may
    // send its own through the API, which is kept rather than silently replaced (issue 22).
    message: optionalText(LEAD_LIMITS.message),
  })
  // SPEC section 5: the details box is only enabled when 'other' is ticked, so only then kept.
  .transform((value) => ({ ...value, otherDetails: value.investorType.other ? value.otherDetails : null }));

export type DemoRequestInput = z.input<typeof DemoRequestSchema>;
export type DemoRequest = z.output<typeof DemoRequestSchema>;
export type InvestorInterest = z.output<typeof InvestorInterestSchema>;
export type InvestorType = InvestorInterest["investorType"];

export type RequestType = "demo" | "investor";

/** A validated submission, either kind, as the lead service stores it. */
export type LeadSubmission =
  | ({ requestType: "demo" } & DemoRequest)
  | ({ requestType: "investor"; message: string } & InvestorInterest);

export type FieldErrors = Partial<Record<string, string>>;

/** The first message of each invalid field, keyed by its top-level name (what forms and the API show). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  return firstErrorPerField(error);
}

/**
 * Validates a submission in the JSON API's shape (SPEC section 7): `requestType: 'investor'` selects
 * the investor schema, anything else is a demo request. Unknown fields are ignored.
 */
export function parseLeadSubmission(
  body: unknown,
): { success: true; data: LeadSubmission } | { success: false; errors: FieldErrors } {
  const record = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (record.requestType === "investor") {
    const result = InvestorInterestSchema.safeParse(record);
    if (!result.success) return { success: false, errors: fieldErrors(result.error) };
    const message = result.data.message ?? INVESTOR_MESSAGE;
    return { success: true, data: { requestType: "investor", ...result.data, message } };
  }
  const result = DemoRequestSchema.safeParse(record);
  if (!result.success) return { success: false, errors: fieldErrors(result.error) };
  return { success: true, data: { requestType: "demo", ...result.data } };
}
