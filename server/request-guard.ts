import type { IncomingMessage } from "node:http";
import { bodyLimitFor, routePath, UPLOAD_PATHS } from "../app/lib/body-limits.ts";

/**
 * What every request must look like before any route sees it (ADR 009): a request target that is a
 * path, a well-formed Host, a method the product answers, and for a body a declared length within
 * the route's limit (app/lib/body-limits.ts, checked before a byte is read) and, on a page, a form's
 * content type. Refusals are short 4xx answers, never a 500 with a stack trace in the log.
 */

export type Refusal = { status: number; message: string; headers?: Record<string, string> };

const PAGE_METHODS = "GET, HEAD, POST, OPTIONS";
const API_METHODS = "GET, HEAD, POST, PATCH, DELETE, OPTIONS";
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// The back office's and the lead forms' encoding; only the CSV import's page uploads a file.
const FORM_TYPE = "application/x-www-form-urlencoded";
const UPLOAD_TYPE = "multipart/form-data";

// A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port 0-65535.
const HOST_PATTERN =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]{2,45}\])(?::(\d{1,5}))?$/i;

export function isValidHost(host: string | undefined): boolean {
  if (!host || host.length > 260) return false;
  const match = HOST_PATTERN.exec(host);
  if (!match) return false;
  return match[1] === undefined || Number(match[1]) <= 65535;
}

/**
 * The request target as a path on this site. An absolute-form target (`GET http://host/x`, which
 * proxies send) is reduced to its path; `*` and anything else that is not a path is refused.
 */
export function originFormTarget(url: string | undefined): string | null {
  if (!url) return null;
  if (url.startsWith("/")) return url;
  if (/^https?:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      return parsed.pathname + parsed.search;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Where `/page/` redirects: the same path without its trailing slashes, or null when the result would
 * not be a plain path on this site. Browsers read `//host`, `/\host` and `\\host` as another site.
 */
export function trailingSlashTarget(path: string): string | null {
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === "" || !trimmed.startsWith("/")) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  if (/^[/\\]{2}/.test(trimmed) || trimmed.includes("\\") || /[\u0000-\u0020\u007f]/.test(trimmed))
    return null;
  return trimmed;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A NUL, raw or percent-encoded (`%00`), anywhere in a request target: its path or its query. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding a NUL is the point
const NUL_IN_TARGET = /\u0000|%00/i;

/**
 * True when the request target carries a NUL byte in a path segment or a query parameter. No page,
 * route parameter or query parameter ever holds one, and PostgreSQL refuses it in text (a query with
 * one failed with a 500: issue 32), so it is refused before any handler sees it.
 */
export function hasNulInTarget(target: string): boolean {
  return NUL_IN_TARGET.test(target);
}

/** Why this request is refused before routing, or null to serve it. `path` is its origin-form path. */
export function refuseRequest(req: IncomingMessage, path: string): Refusal | null {
  if (!isValidHost(firstHeader(req.headers.host))) {
    return { status: 400, message: "Bad request: missing or malformed Host header." };
  }
  if (hasNulInTarget(req.url ?? path)) {
    return { status: 400, message: "Bad request: the address holds a NUL character (%00)." };
  }
  const method = req.method ?? "";
  const api = path.startsWith("/api/");
  // NOTE: the API's resource routes have no page, so they have no route data: React Router would
  // still run one for `/api/….data` and wrap its answer as data (issue 22: the CSV export, run and
  // logged as sent, while the browser showed a blank page). Such a request is never a real one.
  // The image variants (/media/…, issue 24) are files, not pages, for the same reason.
  if ((api || path.startsWith("/media/")) && path.endsWith(".data"))
    return { status: 404, message: "Not found." };
  if (!KNOWN_METHODS.has(method) || (!api && !["GET", "HEAD", "POST", "OPTIONS"].includes(method))) {
    return {
      status: 405,
      message: "Method not allowed.",
      headers: { Allow: api ? API_METHODS : PAGE_METHODS },
    };
  }
  if (!BODY_METHODS.has(method)) return null;

  const declared = req.headers["content-length"];
  // Without a declared length (chunked), the route's reader stops at the same limit (413).
  const length = declared === undefined ? 0 : Number(declared);
  if (!Number.isSafeInteger(length) || length < 0) {
    return { status: 400, message: "Bad request: malformed Content-Length header." };
  }
  // A declared length over the route's limit is answered 413 by the route's reader before it reads a
  // byte (app/lib/http.server.ts): pages show it on the form with the visitor's text kept, the API in
  // its JSON shape. Here it only decides that no `100 Continue` is sent (declaresTooLargeBody).
  const hasBody = length > 0 || declared === undefined;
  if (!api && hasBody && req.headers["content-type"] !== undefined) {
    const type = firstHeader(req.headers["content-type"])?.split(";")[0]?.trim().toLowerCase() ?? "";
    const upload = type === UPLOAD_TYPE && UPLOAD_PATHS.has(routePath(path));
    if (type !== FORM_TYPE && !upload) {
      return { status: 415, message: `Send the form from its page (Content-Type: ${FORM_TYPE}).` };
    }
  } else if (!api && length > 0) {
    return { status: 415, message: `Send the form from its page (Content-Type: ${FORM_TYPE}).` };
  }
  return null;
}

/** True when the request declares a body over its route's limit (no `100 Continue` is sent for it). */
export function declaresTooLargeBody(req: IncomingMessage, path: string): boolean {
  const declared = Number(req.headers["content-length"]);
  return Number.isFinite(declared) && declared > bodyLimitFor(path);
}
