import { type FieldErrors, parseLeadSubmission } from "./lead-schema.ts";

// The JSON submission of a lead form. Loaded on demand (lead-form-client.ts) together with the
// shared schema and zod, so pages do not carry them until a visitor starts filling in a form.

export const LEAD_API_PATH = "/api/demo-request";

export type LeadOutcome =
  /** Stored; `bookingToken` lets the thank-you panel book a meeting for this lead (issue 34). */
  | { kind: "success"; bookingToken?: string }
  /** The shared schema refused the input before anything was sent. */
  | { kind: "invalid"; errors: FieldErrors }
  /** The server answered with a non-OK status. */
  | { kind: "failed"; message: string; errors: FieldErrors }
  /** fetch() itself failed: offline, DNS, connection reset. */
  | { kind: "network"; message: string };

/** Validates with the shared schema, then posts the JSON API (SPEC section 7); never throws. */
export async function sendLead(body: Record<string, unknown>): Promise<LeadOutcome> {
  const checked = parseLeadSubmission(body);
  if (!checked.success) return { kind: "invalid", errors: checked.errors };

  let response: Response;
  try {
    response = await fetch(LEAD_API_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    return { kind: "network", message: error instanceof Error ? error.message : String(error) };
  }
  if (response.ok) {
    const stored = (await response.json().catch(() => null)) as { bookingToken?: unknown } | null;
    return typeof stored?.bookingToken === "string"
      ? { kind: "success", bookingToken: stored.bookingToken }
      : { kind: "success" };
  }

  // The API answers JSON {message, errors}; a proxy in front of it may answer plain text or nothing.
  const text = await response.text().catch(() => "");
  let message = text.trim();
  let errors: FieldErrors = {};
  try {
    const json = JSON.parse(text) as { message?: unknown; errors?: unknown };
    if (typeof json.message === "string") message = json.message;
    if (json.errors && typeof json.errors === "object") errors = json.errors as FieldErrors;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return { kind: "failed", message: message || response.statusText || String(response.status), errors };
}
