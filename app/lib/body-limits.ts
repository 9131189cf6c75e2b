// The largest request bodies the server accepts, in bytes (ADR 009): one table for every route.
// server/request-guard.ts refuses a declared length over the limit before a byte is read; the routes'
// readers (app/lib/http.server.ts) stop a body sent without a length (chunked) at the same limit.

/** Sign-in: a username and a password. */
export const SIGN_IN_BODY_LIMIT = 4 * 1024;
/** Lead forms and the lead API: a 5,000-character message with the other fields, URL-encoded. */
export const LEAD_BODY_LIMIT = 16 * 1024;
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

export function bodyLimitFor(path: string): number {
  const route = routePath(path);
  if (SIGN_IN_PATHS.has(route)) return SIGN_IN_BODY_LIMIT;
  if (LEAD_PATHS.has(route)) return LEAD_BODY_LIMIT;
  return DEFAULT_BODY_LIMIT;
}
