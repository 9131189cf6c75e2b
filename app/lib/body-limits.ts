// The largest request bodies the server accepts, in bytes (ADR 009): one table for every route.
// server/request-guard.ts refuses a declared length over the limit before a byte is read; the routes'
// readers (app/lib/http.server.ts) stop a body sent without a length (chunked) at the same limit.

/** Sign-in: a username and a password. */
export const SIGN_IN_BODY_LIMIT = 4 * 1024;
/** Lead forms and the lead API: a 5,000-character message with the other fields, URL-encoded. */
export const LEAD_BODY_LIMIT = 16 * 1024;
/**
 * The CSV import (issue 23): a file of at most 5 MB (IMPORT_MAX_BYTES) in a multipart body, with
 * room for the form's other fields and the multipart framing.
 */
export const IMPORT_BODY_LIMIT = 5 * 1024 * 1024 + 64 * 1024;
/**
 * An image for the content studio's media library (issue 24): a file of at most 10 MB
 * (MEDIA_MAX_BYTES) with its alt text and the multipart framing.
 */
export const MEDIA_UPLOAD_BODY_LIMIT = 10 * 1024 * 1024 + 64 * 1024;
/**
 * A post of the content studio (issue 24): a body of up to 100,000 characters, each up to 3 bytes in
 * UTF-8 (or 2 as a JSON escape), with the other fields and their form or JSON framing.
 */
export const POST_BODY_LIMIT = 384 * 1024;
/**
 * The content studio's editor pages (issue 24): a post's fields sent as a form. URL-encoding makes a
 * character of the 100,000-character body up to 9 bytes ("—" is "%E2%80%94"), so a body the API
 * takes in 384 KB can need about 900 KB here.
 */
export const POST_FORM_BODY_LIMIT = 1024 * 1024;
/** Any other page action or API call. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

const SIGN_IN_PATHS = new Set(["/admin/login", "/api/login", "/api/login/2fa"]);
// The pages with a lead form post to themselves; the JSON API has its own path.
const LEAD_PATHS = new Set(["/", "/demo", "/invest", "/api/demo-request"]);

/** A page's own path behind React Router's data requests (`/demo.data`, `/_root.data` for `/`). */
export function routePath(path: string): string {
  if (path === "/_root.data") return "/";
  return path.endsWith(".data") ? path.slice(0, -".data".length) : path;
}

/** The only routes that take a file (multipart/form-data), with their limits. */
const UPLOAD_LIMITS: ReadonlyMap<string, number> = new Map([
  ["/admin/leads/import", IMPORT_BODY_LIMIT],
  ["/api/admin/leads/import", IMPORT_BODY_LIMIT],
  ["/api/admin/media", MEDIA_UPLOAD_BODY_LIMIT],
]);
export const UPLOAD_PATHS: ReadonlySet<string> = new Set(UPLOAD_LIMITS.keys());

/** The posts API's create and save: /api/admin/posts and /api/admin/posts/<id>. */
const POST_PATH = /^\/api\/admin\/posts(?:\/\d{1,15})?$/;

/** The editor's pages: /admin/content/new and /admin/content/<id>. */
const POST_PAGE_PATH = /^\/admin\/content\/(?:new|\d{1,15})$/;

export function bodyLimitFor(path: string): number {
  const route = routePath(path);
  const upload = UPLOAD_LIMITS.get(route);
  if (upload !== undefined) return upload;
  if (POST_PATH.test(route)) return POST_BODY_LIMIT;
  if (POST_PAGE_PATH.test(route)) return POST_FORM_BODY_LIMIT;
  if (SIGN_IN_PATHS.has(route)) return SIGN_IN_BODY_LIMIT;
  if (LEAD_PATHS.has(route)) return LEAD_BODY_LIMIT;
  return DEFAULT_BODY_LIMIT;
}
