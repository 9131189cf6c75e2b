import { once } from "node:events";
import http from "node:http";
import type { Readable } from "node:stream";
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

// One delivery attempt on the wire: a JSON POST to the webhook's URL through the shared SSRF guard.
// The address is resolved and checked at every attempt (a name that pointed outward when the
// webhook was created may point inward now: DNS rebinding), and the connection goes to the checked
// address. Unlike the audits, the certificate must be valid (a receiver's identity is the point),
// redirects are answers like any other (never followed), and only the start of the answer is read.

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of the receiver's answer read and kept for the delivery log. */
export const MAX_RESPONSE_BYTES = 4 * 1024;
export const WEBHOOK_USER_AGENT = "Clausebridge-Webhooks/1.0 (+https://www.clausebridge.co.uk)";

export const WEBHOOK_TARGET_TEXT: TargetPolicyText = {
  schemeVerb: "allowed for webhooks",
  privateSwitch: "WEBHOOK_ALLOW_PRIVATE_TARGETS",
  howToAllow:
    "Webhooks only reach public addresses; set WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow private ones.",
};

export type PostOptions = {
  body: string;
  headers: Record<string, string>;
  allowPrivate?: AllowPrivate;
  resolve?: Resolver;
  /** Opens the TCP connection; tests route it to loopback receivers. Default: net.connect. */
  connect?: Connector;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Extra trusted certificate authorities (tests); the system ones otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
};

export type PostAnswer = { status: number; body: string };

/**
 * POSTs `body` and resolves with the status and the start of the answer, whatever the status.
 * Rejects with a SafeFetchError (refused, DNS, TLS, timed out) or a socket error: each message is
 * safe for the log (no body, no secret).
 */
export async function postWebhook(rawUrl: string, options: PostOptions): Promise<PostAnswer> {
  let parsed: URL;
  try {
    parsed = new URL(rawUrl);
  } catch {
    throw new SafeFetchError("Invalid URL", "The webhook URL is not a valid URL.");
  }
  const checked = checkTargetUrl(parsed, WEBHOOK_TARGET_TEXT);
  if (!checked.ok) throw new SafeFetchError(checked.error, checked.details);
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const connection = new Connection();
  try {
    return await abortable(exchange(connection, checked.url, options, signal), signal);
  } catch (error) {
    if (signal.aborted) {
      throw new SafeFetchError("Timed out", `No complete answer within ${timeoutMs / 1000} s.`);
    }
    throw error;
  } finally {
    connection.close();
  }
}

async function exchange(
  connection: Connection,
  url: URL,
  options: PostOptions,
  signal: AbortSignal,
): Promise<PostAnswer> {
  // NOTE: connecting to the checked address, not the name, is the rebinding defence (safe-connect).
  const socket = await openVerifiedSocket(
    connection,
    url,
    {
      allowPrivate: options.allowPrivate,
      resolve: options.resolve,
      connect: options.connect,
      ca: options.ca,
      text: WEBHOOK_TARGET_TEXT,
    },
    signal,
  );
  const _host = urlHost(url);

  const request = http.request({
    // Our own, already connected (and checked) socket: http.request never resolves or connects.
    createConnection: () => socket,
    method: "POST",
    path: `${url.pathname}${url.search}`,
    headers: {
      host: url.host,
      "user-agent": WEBHOOK_USER_AGENT,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(options.body)),
      ...options.headers,
    },
    signal,
  });
  request.end(options.body);
  const [response] = (await once(request, "response", { signal })) as [http.IncomingMessage];
  const body = await readStart(response, options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
  return { status: response.statusCode ?? 0, body };
}

/** The first `limit` bytes of an answer as text; the rest is not read (the socket is closed after). */
async function readStart(source: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    chunks.push(chunk.subarray(0, Math.max(0, limit - size)));
    size += chunk.length;
    if (size >= limit) break;
  }
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks));
}
