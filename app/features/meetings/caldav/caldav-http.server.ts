import { once } from "node:events";
import http from "node:http";
import {
  abortable,
  Connection,
  type Connector,
  openVerifiedSocket,
  type Resolver,
  SafeFetchError,
} from "#app/lib/safe-fetch/safe-connect.server.ts";
import {
  type AllowPrivate,
  checkTargetUrl,
  type TargetPolicyText,
  urlHost,
} from "#app/lib/safe-fetch/target-policy.server.ts";

// One CalDAV exchange on the wire (issue 34, real calendars), through the outbound policy the audits
// and webhooks use (lib/safe-fetch): the calendar's URL is one staff typed, so its name is resolved
// and every address checked at each exchange (DNS may change), private addresses refused unless
// CALDAV_ALLOW_PRIVATE_TARGETS, cloud metadata always, and the connection made to the checked address
// itself. Every exchange has one deadline for everything (DNS, connect, TLS, the whole answer) and an
// answer larger than its limit is refused, so a hanging or flooding server costs a bounded wait and
// bounded memory. Redirects are answers like any other, never followed. The certificate must be valid.

export const CALDAV_TARGET_TEXT: TargetPolicyText = {
  schemeVerb: "allowed for calendars",
  privateSwitch: "CALDAV_ALLOW_PRIVATE_TARGETS",
  howToAllow:
    "Calendars are reached at public addresses only; set CALDAV_ALLOW_PRIVATE_TARGETS=true to allow private ones.",
};

export const CALDAV_USER_AGENT = "Clausebridge-Calendars/1.0 (+https://www.clausebridge.co.uk)";
/** Most of an answer read by default: a PROPFIND's, a PUT's or a DELETE's answer is small. */
export const SMALL_ANSWER_BYTES = 64 * 1024;

/** How to reach calendars: the switch for private targets and, in tests, the network. */
export type CaldavNetwork = {
  /** CALDAV_ALLOW_PRIVATE_TARGETS: off, only public addresses are reached. */
  allowPrivate?: AllowPrivate;
  resolve?: Resolver;
  connect?: Connector;
  /** Extra trusted certificate authorities (tests); the system ones otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
};

export type CaldavRequest = {
  method: "PROPFIND" | "REPORT" | "PUT" | "DELETE";
  url: URL;
  username: string;
  password: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxAnswerBytes?: number;
};

export type CaldavAnswer = { status: number; etag: string | null; body: string };

/** Thrown for an answer over the size limit (the rest is not read). */
export class AnswerTooLargeError extends SafeFetchError {}

/** The calendar collection's URL as staff typed it, checked like any outbound target; a refusal names why. */
export function parseCalendarUrl(raw: string): { ok: true; url: URL } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, message: "Enter the calendar's full address, starting with https://." };
  }
  const checked = checkTargetUrl(url, CALDAV_TARGET_TEXT);
  if (!checked.ok) return { ok: false, message: checked.details };
  // A collection's URL ends with a slash; its events are `<collection>/<uid>.ics`.
  if (!checked.url.pathname.endsWith("/")) checked.url.pathname += "/";
  checked.url.search = "";
  return { ok: true, url: checked.url };
}

/**
 * Sends one request and resolves with the status, the ETag and the answer's text, whatever the
 * status. Rejects with a SafeFetchError (refused, DNS, TLS, timed out, too large) or a socket error;
 * no message carries the password or the answer.
 */
export async function caldavExchange(request: CaldavRequest, network: CaldavNetwork): Promise<CaldavAnswer> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  const connection = new Connection();
  try {
    return await abortable(exchange(connection, request, network, signal), signal);
  } catch (error) {
    if (signal.aborted)
      throw new SafeFetchError("Timed out", `No complete answer within ${request.timeoutMs / 1000} s.`);
    throw error;
  } finally {
    connection.close();
  }
}

async function exchange(
  connection: Connection,
  request: CaldavRequest,
  network: CaldavNetwork,
  signal: AbortSignal,
): Promise<CaldavAnswer> {
  const { url } = request;
  const checked = checkTargetUrl(url, CALDAV_TARGET_TEXT);
  if (!checked.ok) throw new SafeFetchError(checked.error, checked.details);
  const socket = await openVerifiedSocket(
    connection,
    url,
    {
      allowPrivate: network.allowPrivate,
      resolve: network.resolve,
      connect: network.connect,
      ca: network.ca,
      text: CALDAV_TARGET_TEXT,
    },
    signal,
  );
  const _host = urlHost(url);
  const body = request.body ?? "";
  const outgoing = http.request({
    // Our own, already connected (and checked) socket: http.request never resolves or connects.
    createConnection: () => socket,
    method: request.method,
    path: `${url.pathname}${url.search}`,
    headers: {
      host: url.host,
      "user-agent": CALDAV_USER_AGENT,
      authorization: `Basic ${Buffer.from(`${request.username}:${request.password}`).toString("base64")}`,
      "content-length": String(Buffer.byteLength(body)),
      ...request.headers,
    },
    signal,
  });
  outgoing.end(body);
  const [response] = (await once(outgoing, "response", { signal })) as [http.IncomingMessage];
  const limit = request.maxAnswerBytes ?? SMALL_ANSWER_BYTES;
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  const etag = response.headers.etag;
  return {
    status: response.statusCode ?? 0,
    etag: typeof etag === "string" ? etag : null,
    body: new TextDecoder("utf-8").decode(Buffer.concat(chunks)),
  };
}

function tooLarge(limit: number) {
  return new AnswerTooLargeError(
    "Too large",
    `The calendar's answer is larger than ${Math.round(limit / 1024 / 1024) || limit / 1024}${limit >= 1024 * 1024 ? " MB" : " KB"}.`,
  );
}

/** A short, log-safe sentence for a failed exchange (never the password or the answer). */
export function describeCaldavError(error: unknown): string {
  const details = error as { title?: unknown; message?: unknown; code?: unknown };
  if (typeof details.title === "string") {
    const message = String(details.message);
    return message.startsWith(`${details.title}:`) ? message : `${details.title}: ${message}`;
  }
  switch (details.code) {
    case "ECONNREFUSED":
      return "Connection refused (ECONNREFUSED).";
    case "ECONNRESET":
    case "EPIPE":
      return `The calendar server closed the connection early (${details.code}).`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `Host unreachable (${details.code}).`;
    default:
      return typeof details.code === "string"
        ? `Request failed (${details.code}).`
        : `Request failed: ${String(details.message ?? error)
            .split("\n")[0]
            ?.slice(0, 200)}`;
  }
}
