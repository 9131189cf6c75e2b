import { z } from "zod";
import { firstErrorPerField } from "#app/lib/field-errors.ts";
import { WATCH_CHECKS, WATCH_EVERY } from "./watch-types.ts";

// What staff send to add or change a watch: one schema for the page's form and the JSON API, so
// both say the same. Whether the address is a public web address (the audits' target policy) and
// whether a check is offered by this server are the service's checks.

export const MAX_RECIPIENTS = 10;
export const MAX_WATCH_URL_LENGTH = 2_000;
/** Watches per installation: each is a schedule of audits that costs CPU. */
export const MAX_WATCHES = 200;

const EMAIL_PATTERN = /^[^\s@,;<>"]+@[^\s@.,;<>"]+(\.[^\s@.,;<>"]+)+$/;
export const isEmailAddress = (value: string) => value.length <= 254 && EMAIL_PATTERN.test(value);

export const WATCH_MESSAGES = {
  urlRequired: "Enter the address of the site to watch.",
  urlTooLong: `The address may be at most ${MAX_WATCH_URL_LENGTH} characters.`,
  checksRequired: "Choose at least one check.",
  checkUnknown: `Unknown check: choose from ${WATCH_CHECKS.join(", ")}.`,
  everyInvalid: "Choose how often: hourly, daily or weekly.",
  recipientsRequired: "Enter at least one email address for the alerts.",
  recipientInvalid: "Enter email addresses separated by commas, like ops@example.com.",
  recipientsTooMany: `At most ${MAX_RECIPIENTS} addresses.`,
} as const;

/** The form sends one text ("a@x.com, b@y.com"); the API may send that or an array. */
const Recipients = z
  .union([z.string().max(3_000, WATCH_MESSAGES.recipientInvalid), z.array(z.string().max(254)).max(50)], {
    error: WATCH_MESSAGES.recipientInvalid,
  })
  .transform((value) =>
    (Array.isArray(value) ? value : value.split(/[,;\s]+/))
      .map((address) => address.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().refine(isEmailAddress, WATCH_MESSAGES.recipientInvalid))
      .max(MAX_RECIPIENTS, WATCH_MESSAGES.recipientsTooMany)
      .transform((list) => [...new Set(list)]),
  );

const Checks = z
  .array(z.enum(WATCH_CHECKS, WATCH_MESSAGES.checkUnknown), WATCH_MESSAGES.checksRequired)
  .min(1, WATCH_MESSAGES.checksRequired)
  .max(WATCH_CHECKS.length * 2, WATCH_MESSAGES.checkUnknown)
  .transform((checks) => WATCH_CHECKS.filter((check) => checks.includes(check)));

const Url = z
  .string(WATCH_MESSAGES.urlRequired)
  .trim()
  .min(1, WATCH_MESSAGES.urlRequired)
  .max(MAX_WATCH_URL_LENGTH, WATCH_MESSAGES.urlTooLong);

const Every = z.enum(WATCH_EVERY, WATCH_MESSAGES.everyInvalid);

export const CreateWatchSchema = z.object({
  url: Url,
  checks: Checks,
  every: Every,
  /** Absent or empty: the creator's address, when their user name is one. */
  recipients: Recipients.optional(),
});
export type CreateWatchInput = z.infer<typeof CreateWatchSchema>;

export const UpdateWatchSchema = z
  .object({
    url: Url.optional(),
    checks: Checks.optional(),
    every: Every.optional(),
    recipients: Recipients.optional(),
    paused: z.boolean("paused must be true or false").optional(),
  })
  .strict();
export type UpdateWatchInput = z.infer<typeof UpdateWatchSchema>;

/** Field → first message, for a form or an API answer. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  return firstErrorPerField(error, {
    message: (issue) =>
      issue.code === "unrecognized_keys" ? `Unknown field: ${issue.keys.join(", ")}.` : issue.message,
  });
}
