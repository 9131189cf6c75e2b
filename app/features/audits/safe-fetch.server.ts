import { once } from "node:events";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import type { Readable } from "node:stream";
import tls from "node:tls";
import zlib from "node:zlib";
import {
  abortable,
  Connection,
  type Connector,
  connectToFirst,
  SafeFetchError as FetchError,
  type Resolver,
  resolveCheckedTarget,
} from "#app/lib/safe-fetch/safe-connect.server.ts";
import type { FetchChain, FetchedResponse, FetchFailure, Timings, TlsDetails } from "./audit-types.ts";
import {
  type AllowPrivate,
  AUDIT_TARGET_TEXT,
  checkTargetUrl,
  parseTargetUrl,
  urlHost,
} from "./target-policy.server.ts";

// The one way the audits reach other servers (issue 5, "Safe fetching"). Each hop connects through
// the shared SSRF guard (app/lib/safe-fetch/safe-connect.server.ts: resolve the name ourselves,
// refuse any non-public answer, connect to the checked address itself). Redirects are followed by
// hand so every hop goes through the same checks.

export const USER_AGENT = "ClausebridgeAudit/1.0 (+https://www.clausebridge.co.uk)";
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_REDIRECTS = 10;
/**
 * Response headers accepted per response. Node's default of 16 KB is below what real sites send
 * (long CSPs, many cookies); browsers take more. Beyond this the answer is "headers too large".
 */
export const MAX_RESPONSE_HEADER_BYTES = 64 * 1024;
/** Decoded body bytes kept per response: enough for any real home page, small enough for a bomb. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

export type { Connector, ResolvedAddress, Resolver } from "#app/lib/safe-fetch/safe-connect.server.ts";

export type SafeFetchOptions = {
  method?: "GET" | "HEAD" | "OPTIONS";
  /** Extra request headers (Origin, Access-Control-Request-Method…); they override the defaults. */
  headers?: Record<string, string>;
  /** Off by default: only public addresses. See AllowPrivate. */
  allowPrivate?: AllowPrivate;
  /** For the whole chain, redirects included. */
  timeoutMs?: number;
  /**
   * Redirects followed before giving up with "Too many redirects" (default 10). 0 means do not
   * follow at all: the first response is the answer, redirect or not (CORS probes of one URL).
   */
  maxRedirects?: number;
  maxBodyBytes?: number;
  /** Extra trusted certificate authorities (tests); the system ones are used otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
  /** Name resolution; tests map names to addresses without real DNS. Default: the system resolver. */
  resolve?: Resolver;
  /** Opens each TCP connection; tests route them to loopback servers. Default: net.connect. */
  connect?: Connector;
  /** Cancels the fetch (the caller gave up). */
  signal?: AbortSignal;
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// Only offer what we can decode; zstd arrived in Node 22.15/24.
const CAN_ZSTD = typeof zlib.createZstdDecompress === "function";
const ACCEPT_ENCODING = CAN_ZSTD ? "br, gzip, zstd, deflate" : "br, gzip, deflate";

const now = () => performance.now();
const round = (ms: number) => Math.round(ms * 10) / 10;

export function isFetchFailure<T extends object>(value: T | FetchFailure): value is FetchFailure {
  return "error" in value;
}

export async function safeFetch(
  input: string | URL,
  options: SafeFetchOptions = {},
): Promise<FetchChain | FetchFailure> {
  const parsed = typeof input === "string" ? parseTargetUrl(input) : checkTargetUrl(input);
  if (!parsed.ok) return { error: parsed.error, details: parsed.details };

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const signals = [AbortSignal.timeout(timeoutMs)];
  if (options.signal) signals.push(options.signal);
  const signal = AbortSignal.any(signals);

  const hops: FetchedResponse[] = [];
  let url = parsed.url;
  let method = options.method ?? "GET";
  for (;;) {
    let hop: FetchedResponse;
    try {
      hop = await fetchHop(url, method, options, signal);
    } catch (error) {
      const failure = describeFailure(error, url, signal, timeoutMs);
      // The chain so far explains how we got to a host that failed (or was refused).
      const via = hops.length ? ` (after ${describeRedirects(hops)})` : "";
      return { error: failure.error, details: `${failure.details}${via}` };
    }
    hops.push(hop);

    const location = header(hop.headers, "location");
    if (!REDIRECT_STATUSES.has(hop.status) || !location || maxRedirects === 0) return { hops, final: hop };
    if (hops.length > maxRedirects) {
      return {
        error: "Too many redirects",
        details: `More than ${maxRedirects} redirects: ${describeRedirects(hops)}.`,
      };
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return {
        error: "Invalid redirect",
        details: `${url.href} redirects to "${location}", not a valid URL.`,
      };
    }
    const checked = checkTargetUrl(next);
    if (!checked.ok)
      return { error: checked.error, details: `${checked.details} (redirect from ${url.href})` };
    url = checked.url;
    // As browsers do: 303 turns the request into a GET (HEAD stays HEAD).
    if (hop.status === 303 && method !== "HEAD") method = "GET";
  }
}

function describeRedirects(hops: FetchedResponse[]): string {
  return hops.map((hop) => `${hop.url} → ${hop.status}`).join(", ");
}

export function header(headers: [string, string][], name: string): string | null {
  return headers.find(([key]) => key === name)?.[1] ?? null;
}

async function fetchHop(
  url: URL,
  method: string,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<FetchedResponse> {
  const connection = new Connection();
  try {
    return await abortable(fetchHopOn(connection, url, method, options, signal), signal);
  } finally {
    connection.close();
  }
}

async function fetchHopOn(
  connection: Connection,
  url: URL,
  method: string,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<FetchedResponse> {
  const started = now();
  const target = await resolveCheckedTarget(
    url,
    {
      allowPrivate: options.allowPrivate,
      resolve: options.resolve,
      howToAllow: AUDIT_TARGET_TEXT.howToAllow,
      privateSwitch: AUDIT_TARGET_TEXT.privateSwitch,
    },
    signal,
  );
  const host = urlHost(url);
  const secure = url.protocol === "https:";
  const port = Number(url.port) || (secure ? 443 : 80);

  const connectStarted = now();
  // NOTE: connecting to the address, not the name, is the rebinding defence; the Host header and
  // TLS server name still carry the name so virtual hosting and certificates work.
  const { socket: tcp, address } = await connectToFirst(
    connection,
    target.addresses,
    port,
    signal,
    options.connect,
  );
  const connected = now();

  let socket: net.Socket = tcp;
  let tlsDetails: TlsDetails | undefined;
  let tlsMs: number | null = null;
  if (secure) {
    const tlsSocket = connection.track(
      tls.connect({
        socket: tcp,
        host,
        servername: net.isIP(host) ? undefined : host,
        // h2 is offered so the audit learns whether the server speaks HTTP/2 (and then uses it).
        ALPNProtocols: ["h2", "http/1.1"],
        // A bad certificate is a finding to report, not a reason to stop: `authorized` records it.
        rejectUnauthorized: false,
        ca: options.ca ? [...tls.rootCertificates, ...[options.ca].flat()] : undefined,
      }),
    );
    try {
      await once(tlsSocket, "secureConnect", { signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new FetchError("TLS handshake failed", `${url.host}: ${(error as Error).message}`);
    }
    tlsMs = round(now() - connected);
    tlsDetails = describeTls(tlsSocket);
    socket = tlsSocket;
  }

  const requestHeaders: Record<string, string> = {
    "user-agent": USER_AGENT,
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-language": "en-GB,en;q=0.9",
    "accept-encoding": ACCEPT_ENCODING,
  };
  for (const [name, value] of Object.entries(options.headers ?? {}))
    requestHeaders[name.toLowerCase()] = value;

  const sent = now();
  const exchange =
    tlsDetails?.alpnProtocol === "h2"
      ? await requestHttp2(connection, socket, url, method, requestHeaders, signal)
      : await requestHttp1(socket, url, method, requestHeaders, signal);
  const firstByte = now();

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const encoding = (header(exchange.headers, "content-encoding") ?? "identity").trim().toLowerCase();
  const body = await readBody(exchange.body, encoding, maxBodyBytes);
  const ended = now();

  const isRedirect = REDIRECT_STATUSES.has(exchange.status) && header(exchange.headers, "location") !== null;
  const timings: Timings = {
    dnsMs: target.dnsMs,
    connectMs: round(connected - connectStarted),
    tlsMs,
    // Phases, as browsers' network panels show them: time to first byte is the wait after the
    // request was sent, so dns + connect + tls + ttfb + download ≈ total.
    ttfbMs: round(firstByte - sent),
    downloadMs: round(ended - firstByte),
    totalMs: round(ended - started),
  };
  return {
    url: url.href,
    status: exchange.status,
    headers: exchange.headers,
    body:
      isRedirect || method === "HEAD" ? "" : decodeText(body.data, header(exchange.headers, "content-type")),
    bodyTruncated: body.truncated,
    httpVersion: exchange.httpVersion,
    remoteAddress: address,
    ...(tlsDetails ? { tls: tlsDetails } : {}),
    timings,
    transferredBytes: body.transferred,
    decodedBytes: body.decoded,
    encoding,
  };
}

type Exchange = { status: number; headers: [string, string][]; httpVersion: string; body: Readable };

async function requestHttp1(
  socket: net.Socket,
  url: URL,
  method: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Exchange> {
  const request = http.request({
    // Our own, already connected (and checked) socket: http.request never resolves or connects.
    createConnection: () => socket,
    method,
    path: `${url.pathname}${url.search}`,
    headers: { host: url.host, ...headers },
    maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
    signal,
  });
  request.end();
  let response: http.IncomingMessage;
  try {
    [response] = (await once(request, "response", { signal })) as [http.IncomingMessage];
  } catch (error) {
    throw invalidResponse(error, url);
  }
  return {
    status: response.statusCode ?? 0,
    headers: pairs(response.rawHeaders),
    httpVersion: response.httpVersion,
    body: response,
  };
}

async function requestHttp2(
  connection: Connection,
  socket: net.Socket,
  url: URL,
  method: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Exchange> {
  const session = connection.track(
    http2.connect(url.origin, {
      createConnection: () => socket,
      settings: { maxHeaderListSize: MAX_RESPONSE_HEADER_BYTES },
    }),
  );
  const stream = session.request(
    { ":method": method, ":path": `${url.pathname}${url.search}`, ":authority": url.host, ...headers },
    { endStream: true, signal },
  );
  // A session error (GOAWAY, protocol error) would otherwise go unheard by the stream's waiter.
  session.on("error", (error) => stream.destroy(error));
  let response: [http2.IncomingHttpHeaders & http2.IncomingHttpStatusHeader, number, string[]?];
  try {
    response = (await once(stream, "response", { signal })) as typeof response;
  } catch (error) {
    throw invalidResponse(error, url);
  }
  const [head, , raw] = response;
  const list: [string, string][] = Array.isArray(raw)
    ? pairs(raw)
    : Object.entries(head).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [String(value)]).map((item): [string, string] => [name, item]),
      );
  return {
    status: Number(head[":status"]),
    headers: list.filter(([name]) => !name.startsWith(":")),
    httpVersion: "2",
    body: stream,
  };
}

function invalidResponse(error: unknown, url: URL): unknown {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  if (code === "HPE_HEADER_OVERFLOW") {
    return new FetchError(
      "Headers too large",
      `${url.host} sent response headers larger than ${MAX_RESPONSE_HEADER_BYTES / 1024} KB, more than the audit accepts.`,
    );
  }
  if (code.startsWith("HPE_")) {
    return new FetchError(
      "Invalid HTTP response",
      `${url.host} answered something that is not HTTP (${code}).`,
    );
  }
  return error;
}

function pairs(raw: string[]): [string, string][] {
  const list: [string, string][] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    list.push([(raw[index] ?? "").toLowerCase(), raw[index + 1] ?? ""]);
  }
  return list;
}

function decompressor(encoding: string) {
  switch (encoding) {
    case "br":
      return zlib.createBrotliDecompress();
    case "gzip":
    case "x-gzip":
      // Sync flush: a body cut short still yields what arrived, as browsers show it.
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case "deflate":
      return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case "zstd":
      return CAN_ZSTD ? zlib.createZstdDecompress() : null;
    default:
      return null;
  }
}

/** Reads a body up to `limit` decoded bytes, counting bytes on the wire and after decoding. */
async function readBody(source: Readable, encoding: string, limit: number) {
  let transferred = 0;
  let decoded = 0;
  let truncated = false;
  const chunks: Buffer[] = [];
  const decoder = decompressor(encoding);
  source.on("data", (chunk: Buffer) => {
    transferred += chunk.length;
  });
  let output: Readable = source;
  if (decoder) {
    // pipe() does not forward errors; without this a reset connection would leave us waiting.
    source.on("error", (error) => decoder.destroy(error));
    output = source.pipe(decoder);
  }
  try {
    for await (const chunk of output as AsyncIterable<Buffer>) {
      decoded += chunk.length;
      if (decoded > limit) {
        chunks.push(chunk.subarray(0, chunk.length - (decoded - limit)));
        truncated = true;
        break;
      }
      chunks.push(chunk);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code.startsWith("Z_") || code.startsWith("ERR_ZSTD") || code.startsWith("ERR__")) {
      throw new FetchError(
        "Could not decode the response",
        `The ${encoding} body is corrupt: ${String(error)}`,
      );
    }
    throw error;
  } finally {
    if (truncated) source.destroy();
  }
  return { data: Buffer.concat(chunks), transferred, decoded: truncated ? limit : decoded, truncated };
}

function decodeText(data: Buffer, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(data);
  } catch {
    // An unknown charset label: UTF-8 is what a browser would most likely end up with too.
    return new TextDecoder("utf-8").decode(data);
  }
}

function describeTls(socket: tls.TLSSocket): TlsDetails {
  const certificate = socket.getPeerCertificate();
  const hasCertificate = certificate && Object.keys(certificate).length > 0;
  const validTo = hasCertificate ? new Date(certificate.valid_to) : null;
  const validFrom = hasCertificate ? new Date(certificate.valid_from) : null;
  const error = socket.authorizationError as unknown;
  return {
    protocol: socket.getProtocol(),
    cipher: socket.getCipher()?.name ?? null,
    alpnProtocol: socket.alpnProtocol || null,
    authorized: socket.authorized,
    authorizationError: error ? String((error as NodeJS.ErrnoException).code ?? error) : null,
    subject: hasCertificate ? distinguishedName(certificate.subject) : null,
    issuer: hasCertificate ? distinguishedName(certificate.issuer) : null,
    validFrom: validFrom && !Number.isNaN(validFrom.getTime()) ? validFrom.toISOString() : null,
    validTo: validTo && !Number.isNaN(validTo.getTime()) ? validTo.toISOString() : null,
    daysRemaining:
      validTo && !Number.isNaN(validTo.getTime())
        ? Math.floor((validTo.getTime() - Date.now()) / 86_400_000)
        : null,
  };
}

function distinguishedName(name: object | undefined): string | null {
  if (!name) return null;
  const parts = Object.entries(name).map(
    ([key, value]) => `${key}=${Array.isArray(value) ? value.join("+") : String(value)}`,
  );
  return parts.length ? parts.join(", ") : null;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** Turns whatever went wrong into the result card's `error` (short) and `details` (for people). */
function describeFailure(error: unknown, url: URL, signal: AbortSignal, timeoutMs: number): FetchFailure {
  if (signal.aborted) {
    const reason = signal.reason as Error | undefined;
    if (reason?.name === "TimeoutError") {
      return {
        error: `Timed out after ${seconds(timeoutMs)}`,
        details: `${url.host} did not answer completely within ${seconds(timeoutMs)}.`,
      };
    }
    return { error: "Cancelled", details: `The fetch of ${url.href} was cancelled.` };
  }
  if (error instanceof FetchError) return { error: error.title, details: error.message };
  const code = (error as NodeJS.ErrnoException).code ?? "";
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case "ECONNREFUSED":
      return { error: "Connection refused", details: `${url.host} refused the connection (${message}).` };
    case "ECONNRESET":
    case "EPIPE":
    case "ECONNABORTED":
    case "ERR_HTTP2_STREAM_ERROR":
    case "ERR_HTTP2_SESSION_ERROR":
      return { error: "Connection reset", details: `${url.host} closed the connection early (${message}).` };
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EADDRNOTAVAIL":
      return { error: "Host unreachable", details: `No route to ${url.host} (${message}).` };
    case "ETIMEDOUT":
      return {
        error: "Connection timed out",
        details: `${url.host} did not accept the connection (${message}).`,
      };
    default:
      return { error: "Request failed", details: `${url.href}: ${message}${code ? ` (${code})` : ""}` };
  }
}
