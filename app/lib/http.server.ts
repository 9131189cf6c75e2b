// Request-body helpers shared by the JSON API's resource routes and the page actions.
import { bodyLimitFor } from "./body-limits.ts";

/** Reads at most `limit` bytes of the body; null when it is larger (the caller answers 413). */
export async function readLimitedText(request: Request, limit: number): Promise<string | null> {
  const bytes = await readLimitedBytes(request, limit);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

export async function readLimitedBytes(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stop reading, but do not cancel: cancelling destroys the socket before the 413 is sent. Nothing
      // more is buffered: the connection stays paused until the client gives up or the server's
      // request timeout ends it, and the client reads the 413 instead of a connection reset.
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export type JsonBody = { ok: true; value: Record<string, unknown> } | { ok: false; response: Response };

/**
 * The body of a JSON API request as an object, or the answer to give instead: 415 unless JSON,
 * 413 over `limit` bytes, 400 when malformed or not an object.
 */
export async function readJsonObject(request: Request, limit: number): Promise<JsonBody> {
  const parsed = await parseJsonObject(
    request.headers.get("content-type"),
    (max) => readLimitedBytes(request, max),
    limit,
  );
  return parsed.ok
    ? parsed
    : {
        ok: false,
        response: Response.json({ message: parsed.message, errors: {} }, { status: parsed.status }),
      };
}

export type ParsedJsonObject =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; status: number; message: string };

/**
 * readJsonObject without a web Request: the Content-Type header and a reader of the body that stops
 * after `limit` bytes (null when larger). The body is not read at all unless it is declared JSON.
 */
export async function parseJsonObject(
  contentTypeHeader: string | null,
  readBody: (limit: number) => Promise<Uint8Array | null>,
  limit: number,
): Promise<ParsedJsonObject> {
  const fail = (status: number, message: string) => ({ ok: false as const, status, message });
  const contentType = contentTypeHeader?.split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/json") {
    return fail(415, "Send the request body as JSON (Content-Type: application/json).");
  }
  const bytes = await readBody(limit);
  if (bytes === null)
    return fail(413, `Request body too large: the limit is ${Math.round(limit / 1024)} KB.`);
  let value: unknown;
  try {
    // JSON is UTF-8 (RFC 8259): invalid bytes are refused, not silently replaced.
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    return fail(400, "Malformed JSON in the request body.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail(400, "The request body must be a JSON object.");
  }
  return { ok: true, value: value as Record<string, unknown> };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function methodNotAllowed(allow: string): Response {
  return Response.json({ message: "Method not allowed" }, { status: 405, headers: { Allow: allow } });
}

/**
 * A page action's form, read no further than the route's body limit. The server guard has refused
 * other encodings and declared lengths over the limit (server/request-guard.ts); a body sent without a
 * length that runs over the limit is answered 413 here (thrown, so React Router renders it).
 */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const limit = bodyLimitFor(new URL(request.url).pathname);
  const text = await readLimitedText(request, limit);
  if (text === null) {
    throw new Response(`Request body too large: the limit is ${Math.round(limit / 1024)} KB.`, {
      status: 413,
    });
  }
  return new URLSearchParams(text);
}

export type MultipartBody = { ok: true; form: FormData } | { ok: false; status: number; message: string };

/**
 * A multipart/form-data body (a file upload), read no further than `limit` bytes before it is
 * parsed: 415 unless multipart, 413 over the limit, 400 when malformed.
 */
export async function readMultipart(request: Request, limit: number): Promise<MultipartBody> {
  const contentType = request.headers.get("content-type") ?? "";
  if (contentType.split(";")[0]?.trim().toLowerCase() !== "multipart/form-data")
    return {
      ok: false,
      status: 415,
      message: "Send the file as multipart/form-data (a field named `file`).",
    };
  const bytes = await readLimitedBytes(request, limit);
  if (bytes === null)
    return {
      ok: false,
      status: 413,
      message: `Request body too large: the limit is ${Math.round(limit / 1024 / 1024)} MB.`,
    };
  try {
    // Parsed from the bytes already read and counted, never from the open stream.
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { "Content-Type": contentType },
    }).formData();
    return { ok: true, form };
  } catch {
    return { ok: false, status: 400, message: "The upload could not be read. Please choose the file again." };
  }
}
