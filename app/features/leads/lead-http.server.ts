import { data, type RouterContextProvider, redirect } from "react-router";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  describeDatabaseError,
  isDatabaseUnavailable,
} from "#app/db/unavailable.server.ts";
import { readCookie } from "#app/lib/cookies.ts";
import { parseJsonObject, readLimitedBytes, readLimitedText } from "#app/lib/http.server.ts";
import { tooManyRequestsMessage } from "#app/lib/rate-limit.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { type ActiveApiKey, bearerToken, findActiveApiKey } from "./api-keys.server.ts";
import {
  type FieldErrors,
  HONEYPOT_FIELD,
  INVESTOR_TYPES,
  MAX_LEAD_BODY_BYTES,
  type RequestType,
} from "./lead-schema.ts";
import type { SubmissionContext, SubmissionResult } from "./lead-service.server.ts";
import { leadsServices } from "./leads-context.server.ts";
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

export { tooManyRequestsMessage };

/** One sentence for a form or API answer: the field messages, in form order. */
export function summariseErrors(errors: FieldErrors): string {
  return Object.values(errors).join(". ");
}

/** What the lead API reads of a request: a web Request's, or server.ts's fast path's (no Request built). */
export type LeadRequestHead = {
  headers: { get(name: string): string | null };
  /** The site's host as the client addressed it (`example.com:8443`), and `http:` or `https:`. */
  host: string;
  protocol: string;
};

function headOf(request: Request): LeadRequestHead {
  const url = new URL(request.url);
  return { headers: request.headers, host: url.host, protocol: url.protocol };
}

/** The path of the page the visitor sent the form from, when the browser says and it is ours. */
function sourcePage(head: LeadRequestHead): string | null {
  const referer = head.headers.get("referer");
  if (!referer) return null;
  try {
    const from = new URL(referer);
    if (from.host !== new URL(`${head.protocol}//${head.host}`).host) return null;
    return from.pathname.slice(0, 200);
  } catch {
    return null;
  }
}

function submissionContext(
  head: LeadRequestHead,
  context: Context,
  transport: "form-action" | "api",
  apiKey?: ActiveApiKey,
): SubmissionContext {
  return leadSubmissionContext(head, context.get(clientAddressContext), transport, apiKey);
}

/** How a request submitting a lead is described to the lead service (also a booking's, issue 34). */
export function leadSubmissionContext(
  head: LeadRequestHead,
  clientAddress: string,
  transport: "form-action" | "api",
  apiKey?: ActiveApiKey,
): SubmissionContext {
  const page = sourcePage(head);
  return {
    clientAddress,
    timeToken: readCookie(head.headers.get("cookie"), TIME_TOKEN_COOKIE),
    sourcePage: page,
    // The site's own forms post the API from one of its pages (a same-site Referer) or post the page
    // itself without JavaScript; anything else is an integration calling the API.
    source: transport === "form-action" || page !== null ? "form" : "api",
    apiKey,
    // For the lead's attribution: hashed with the address into the visitor id of the day, never stored.
    headers: head.headers,
    protocol: head.protocol,
  };
}

async function submit(
  body: unknown,
  head: LeadRequestHead,
  context: Context,
  transport: "form-action" | "api",
  apiKey?: ActiveApiKey,
): Promise<SubmissionResult | "failed"> {
  try {
    const { leads } = await leadsServices(context);
    return await leads.submit(body, submissionContext(head, context, transport, apiKey));
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

/** The lead API's answer before it becomes a Response (server.ts's fast path writes it directly). */
export type LeadApiAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * POST /api/demo-request: 201 only once the lead is committed; 4xx/5xx store nothing. With
 * `Authorization: Bearer <key>` the key must be valid and active (401 otherwise: a bad key is
 * never treated as an anonymous visitor).
 */
export async function handleLeadApi(request: Request, context: Context): Promise<Response> {
  const answer = await answerLeadApi(headOf(request), (limit) => readLimitedBytes(request, limit), context);
  return json(answer.body, answer.status, answer.headers);
}

/**
 * The lead API without a web Request: `readBody` gives the body read no further than `limit` bytes
 * (null when it is larger). server.ts calls this directly for POST /api/demo-request, sparing each
 * lead Express's and React Router's request handling (route matching over every route, a Request
 * and its body stream, a Response and its stream): a third of a submission's CPU (docs/performance.md).
 */
export async function answerLeadApi(
  head: LeadRequestHead,
  readBody: (limit: number) => Promise<Uint8Array | null>,
  context: Context,
): Promise<LeadApiAnswer> {
  const presented = bearerToken(head.headers.get("authorization"));
  let apiKey: ActiveApiKey | undefined;
  if (presented !== undefined) {
    const { database } = await leadsServices(context);
    const found = presented ? await findActiveApiKey(database.db, presented) : null;
    if (!found)
      return {
        status: 401,
        body: { message: INVALID_API_KEY_MESSAGE },
        headers: { "WWW-Authenticate": 'Bearer realm="leads"' },
      };
    apiKey = found;
  }
  const parsed = await parseJsonObject(head.headers.get("content-type"), readBody, MAX_LEAD_BODY_BYTES);
  if (!parsed.ok) return { status: parsed.status, body: { message: parsed.message, errors: {} } };
  const body = parsed.value;
  const result = await submit(body, head, context, "api", apiKey);
  if (result === "failed")
    return { status: 503, body: { message: STORE_FAILED_MESSAGE }, headers: RETRY_LATER };
  switch (result.kind) {
    case "invalid":
      return { status: 400, body: { message: summariseErrors(result.errors), errors: result.errors } };
    case "rate-limited":
      return {
        status: 429,
        body: { message: tooManyRequestsMessage(result.retryAfterSeconds) },
        headers: { "Retry-After": String(result.retryAfterSeconds) },
      };
    case "erased":
      return { status: 409, body: { message: ERASED_PERSON_MESSAGE } };
    case "stored":
      // A flagged submission gets the same answer: nothing tells a bot it was caught.
      return {
        status: 201,
        body: {
          id: result.id,
          message: "Demo request submitted successfully",
          // For the thank-you panel's time picker (issue 34): books a meeting for this lead, 24 hours.
          bookingToken: await bookingTokenOf(context, result.id),
        },
      };
  }
}

/**
 * What server.ts's fast path answers when answerLeadApi throws (React Router's error handling is not
 * there): 503 when the database cannot serve now (ADR 008), 500 otherwise; both logged.
 */
export function leadApiFailure(error: unknown): LeadApiAnswer {
  if (isDatabaseUnavailable(error)) {
    console.error(`Database unavailable (answered 503): ${describeDatabaseError(error)}`);
    return { status: 503, body: { message: DATABASE_UNAVAILABLE_MESSAGE }, headers: RETRY_LATER };
  }
  console.error(error);
  return { status: 500, body: { message: "Unexpected Server Error" } };
}

/** The query parameter of a no-JavaScript success page that carries the booking token (issue 34). */
export const BOOKING_PARAM = "booking";

async function bookingTokenOf(context: Context, leadId: number): Promise<string> {
  return (await leadsServices(context)).bookingToken(leadId);
}

/** `/demo?submitted=demo#demo-form` with `&booking=<token>` before the fragment. */
function withBookingToken(location: string, token: string): string {
  const [path, fragment] = location.split("#");
  const joiner = path?.includes("?") ? "&" : "?";
  return `${path}${joiner}${BOOKING_PARAM}=${encodeURIComponent(token)}${fragment === undefined ? "" : `#${fragment}`}`;
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

  const result = await submit(formToSubmission(form, requestType), headOf(request), context, "form-action");
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
      return redirect(withBookingToken(successLocation, await bookingTokenOf(context, result.id)), 303);
  }
}
