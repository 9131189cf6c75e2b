import { data, type RouterContextProvider, redirect } from "react-router";
import { DATABASE_RETRY_AFTER_SECONDS } from "#app/db/unavailable.server.ts";
import { readCookie } from "#app/lib/cookies.ts";
import { readJsonObject, readLimitedText } from "#app/lib/http.server.ts";
import { clientAddressContext, getServices } from "#app/services.server.ts";
import { type ActiveApiKey, bearerToken, findActiveApiKey } from "./api-keys.server.ts";
import {
  type FieldErrors,
  HONEYPOT_FIELD,
  INVESTOR_TYPES,
  MAX_LEAD_BODY_BYTES,
  type RequestType,
} from "./lead-schema.ts";
import type { SubmissionContext, SubmissionResult } from "./lead-service.server.ts";
import { TIME_TOKEN_COOKIE } from "./time-token.server.ts";

// The two ways a lead arrives over HTTP: the JSON API (SPEC section 7) and the forms' own POST when
// JavaScript is off. Both end in the same LeadService.submit call.

type Context = Readonly<RouterContextProvider>;

/** An integration sending a person who was erased on request (issue 13). */
export const ERASED_PERSON_MESSAGE =
  "This person's data was erased on their request; it cannot be sent again through an integration. They may write to us through the website.";
export const STORE_FAILED_MESSAGE = "We could not save your request. Please try again in a moment.";
/** Like every 503 the server sends when the database cannot serve (ADR 008). */
const RETRY_LATER = { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) };

export function tooManyRequestsMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** One sentence for a form or API answer: the field messages, in form order. */
export function summariseErrors(errors: FieldErrors): string {
  return Object.values(errors).join(". ");
}

/** The path of the page the visitor sent the form from, when the browser says and it is ours. */
function sourcePage(request: Request): string | null {
  const referer = request.headers.get("referer");
  if (!referer) return null;
  try {
    const from = new URL(referer);
    if (from.host !== new URL(request.url).host) return null;
    return from.pathname.slice(0, 200);
  } catch {
    return null;
  }
}

function submissionContext(
  request: Request,
  context: Context,
  transport: "form-action" | "api",
  apiKey?: ActiveApiKey,
): SubmissionContext {
  const page = sourcePage(request);
  return {
    clientAddress: context.get(clientAddressContext),
    timeToken: readCookie(request.headers.get("cookie"), TIME_TOKEN_COOKIE),
    sourcePage: page,
    // The site's own forms post the API from one of its pages (a same-site Referer) or post the page
    // itself without JavaScript; anything else is an integration calling the API.
    source: transport === "form-action" || page !== null ? "form" : "api",
    apiKey,
    // For the lead's attribution: hashed with the address into the visitor id of the day, never stored.
    headers: request.headers,
    protocol: new URL(request.url).protocol,
  };
}

async function submit(
  body: unknown,
  request: Request,
  context: Context,
  transport: "form-action" | "api",
  apiKey?: ActiveApiKey,
): Promise<SubmissionResult | "failed"> {
  try {
    const { leads } = await getServices(context);
    return await leads.submit(body, submissionContext(request, context, transport, apiKey));
  } catch (error) {
    // Never log the submission itself: it is personal data.
    console.error("Storing a lead failed:", (error as Error).message);
    return "failed";
  }
}

// No Cache-Control here: server.ts marks every dynamic response `private, no-store` already.
const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });

export const INVALID_API_KEY_MESSAGE = "Invalid or revoked API key.";

/**
 * POST /api/demo-request: 201 only once the lead is committed; 4xx/5xx store nothing. With
 * `Authorization: Bearer <key>` the key must be valid and active (401 otherwise: a bad key is
 * never treated as an anonymous visitor).
 */
export async function handleLeadApi(request: Request, context: Context): Promise<Response> {
  const presented = bearerToken(request.headers.get("authorization"));
  let apiKey: ActiveApiKey | undefined;
  if (presented !== undefined) {
    const { database } = await getServices(context);
    const found = presented ? await findActiveApiKey(database.db, presented) : null;
    if (!found)
      return json({ message: INVALID_API_KEY_MESSAGE }, 401, { "WWW-Authenticate": 'Bearer realm="leads"' });
    apiKey = found;
  }
  const parsed = await readJsonObject(request, MAX_LEAD_BODY_BYTES);
  if (!parsed.ok) return parsed.response;
  const body = parsed.value;
  const result = await submit(body, request, context, "api", apiKey);
  if (result === "failed") return json({ message: STORE_FAILED_MESSAGE }, 503, RETRY_LATER);
  switch (result.kind) {
    case "invalid":
      return json({ message: summariseErrors(result.errors), errors: result.errors }, 400);
    case "rate-limited":
      return json({ message: tooManyRequestsMessage(result.retryAfterSeconds) }, 429, {
        "Retry-After": String(result.retryAfterSeconds),
      });
    case "erased":
      return json({ message: ERASED_PERSON_MESSAGE }, 409);
    case "stored":
      // A flagged submission gets the same answer: nothing tells a bot it was caught.
      return json({ id: result.id, message: "Demo request submitted successfully" }, 201);
  }
}

/** What a form's page renders after a failed no-JavaScript POST. */
export type LeadFormActionData = {
  message: string;
  errors: FieldErrors;
  values: Record<string, string | string[]>;
};

const FORM_FIELDS = ["fullName", "email", "company", "phone", "message", "otherDetails"] as const;

/** Turns a urlencoded form post into the JSON API's shape (checkboxes named investorType). */
export function formToSubmission(form: URLSearchParams, requestType: RequestType): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of FORM_FIELDS) if (form.has(field)) body[field] = form.get(field);
  if (form.has(HONEYPOT_FIELD)) body[HONEYPOT_FIELD] = form.get(HONEYPOT_FIELD);
  if (requestType === "investor") {
    const ticked = form.getAll("investorType");
    body.requestType = "investor";
    body.investorType = Object.fromEntries(INVESTOR_TYPES.map((type) => [type, ticked.includes(type)]));
  }
  return body;
}

/**
 * The route action behind each lead form when JavaScript is off: success redirects (POST, then a
 * GET that shows the success state); failure re-renders the page with the messages and the values.
 */
export async function handleLeadFormAction(
  request: Request,
  context: Context,
  requestType: RequestType,
  successLocation: string,
) {
  const text = await readLimitedText(request, MAX_LEAD_BODY_BYTES);
  const form = new URLSearchParams(text ?? "");
  const values: LeadFormActionData["values"] = {};
  for (const field of FORM_FIELDS) if (form.has(field)) values[field] = form.get(field)?.slice(0, 5000) ?? "";
  values.investorType = form.getAll("investorType").slice(0, 4);
  const fail = (status: number, message: string, errors: FieldErrors = {}, headers?: HeadersInit) =>
    data<LeadFormActionData>({ message, errors, values }, { status, headers });

  if (text === null) {
    return fail(413, "Your message is too long: please shorten it and send the form again.");
  }
  const contentType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/x-www-form-urlencoded")
    return fail(415, "Please send the form from this page.");

  const result = await submit(formToSubmission(form, requestType), request, context, "form-action");
  if (result === "failed") return fail(503, STORE_FAILED_MESSAGE, {}, RETRY_LATER);
  switch (result.kind) {
    case "invalid":
      return fail(400, summariseErrors(result.errors), result.errors);
    case "rate-limited":
      return fail(
        429,
        tooManyRequestsMessage(result.retryAfterSeconds),
        {},
        {
          "Retry-After": String(result.retryAfterSeconds),
        },
      );
    // Only an API key's submission is refused for an erased person; a form never gets here.
    case "erased":
      return fail(409, ERASED_PERSON_MESSAGE);
    case "stored":
      return redirect(successLocation, 303);
  }
}
