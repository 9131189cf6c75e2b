import { z } from "zod";
import { breaksTextRule } from "#app/lib/text-rules.ts";

// What an outgoing webhook is made of (issue 10), shared by the page's form, its script and the JSON
// API, so the browser's instant checks and the server's final word say the same.

export const WEBHOOK_EVENTS = [
  "lead.created",
  "lead.updated",
  "lead.spam_changed",
  "lead.deleted",
  "audit.alert",
  "meeting.booked",
  "meeting.rescheduled",
  "meeting.cancelled",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "lead.created": "A lead arrives (or is released from spam)",
  "lead.updated": "A lead is updated",
  "lead.spam_changed": "A lead is marked as spam or not spam",
  "lead.deleted": "A lead is erased",
  "audit.alert": "A watched site gets worse, or recovers (website audits)",
  "meeting.booked": "A meeting is booked",
  "meeting.rescheduled": "A meeting is moved to another time",
  "meeting.cancelled": "A meeting is cancelled",
};

/** What "Send test event" can send: a ping, or a lead.created with a sample lead marked as a test. */
export const TEST_EVENTS = ["ping", "lead.created"] as const;
export type TestEventType = (typeof TEST_EVENTS)[number];

/** Webhooks per installation: every event fans out to each, so the count is bounded. */
export const MAX_WEBHOOKS = 20;
/** Long enough for any real endpoint with a token in its query; the audits use the same bound. */
export const MAX_WEBHOOK_URL_LENGTH = 2_000;

export const WEBHOOK_MESSAGES = {
  urlRequired: "Enter the URL that should receive the events.",
  urlTooLong: `The URL may be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`,
  urlInvalid: "Enter a full URL starting with https:// or http://.",
  urlControl: "The URL may not contain control characters or spaces.",
  urlCredentials: "Remove the user name and password from the URL (the part before @).",
  eventsRequired: "Choose at least one event.",
  eventsInvalid: "Unknown event type.",
} as const;

/**
 * The URL as typed: http or https with a host, no credentials (they would be sent and shown in the
 * log), no fragment (never sent). Whether its host is public is checked on the server, at creation
 * and again at each delivery.
 */
export const WebhookUrlSchema = z
  .string(WEBHOOK_MESSAGES.urlRequired)
  .trim()
  .min(1, WEBHOOK_MESSAGES.urlRequired)
  .max(MAX_WEBHOOK_URL_LENGTH, WEBHOOK_MESSAGES.urlTooLong)
  .refine((value) => !breaksTextRule(value, "one-line") && !/\s/.test(value), WEBHOOK_MESSAGES.urlControl)
  .transform((value, context) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      context.addIssue({ code: "custom", message: WEBHOOK_MESSAGES.urlInvalid });
      return z.NEVER;
    }
    if ((url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname) {
      context.addIssue({ code: "custom", message: WEBHOOK_MESSAGES.urlInvalid });
      return z.NEVER;
    }
    if (url.username || url.password) {
      context.addIssue({ code: "custom", message: WEBHOOK_MESSAGES.urlCredentials });
      return z.NEVER;
    }
    url.hash = "";
    if (url.href.length > MAX_WEBHOOK_URL_LENGTH) {
      context.addIssue({ code: "custom", message: WEBHOOK_MESSAGES.urlTooLong });
      return z.NEVER;
    }
    return url.href;
  });

export const WebhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, WEBHOOK_MESSAGES.eventsInvalid), WEBHOOK_MESSAGES.eventsRequired)
  .min(1, WEBHOOK_MESSAGES.eventsRequired)
  .max(WEBHOOK_EVENTS.length, WEBHOOK_MESSAGES.eventsInvalid)
  // Stored once each, in the documented order, whatever order the form or client sent.
  .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event)));

export const CreateWebhookSchema = z.object({ url: WebhookUrlSchema, events: WebhookEventsSchema });
export type CreateWebhookInput = z.output<typeof CreateWebhookSchema>;

export type WebhookFieldErrors = Partial<Record<"url" | "events", string>>;

/** The form's or the API's fields, checked: the values, or one message per field. */
export function parseCreateWebhook(
  input: unknown,
): { success: true; data: CreateWebhookInput } | { success: false; errors: WebhookFieldErrors } {
  const parsed = CreateWebhookSchema.safeParse(input);
  if (parsed.success) return { success: true, data: parsed.data };
  const errors: WebhookFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === "url" || field === "events") && !errors[field]) errors[field] = issue.message;
  }
  return { success: false, errors };
}
