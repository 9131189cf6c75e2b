import { type RouterContextProvider, redirect } from "react-router";
import { can, type Permission, type Role, sectionFor } from "./permissions.ts";
import { createServiceKey, servicesOf } from "./service-context.server.ts";

// Every back-office page and /api/admin/* call goes through these: the server decides who sees what,
// by the role read with the session on every request (never from the cookie, so a role change holds
// from the next request on, on every instance) and the one permission table (permissions.ts).
// Nothing the browser stores (localStorage.isAdmin, the admin_hint cookie) is ever consulted.

// The guard lives here, below the features, so that every feature can ask it without importing
// features/auth: auth provides the one thing it needs, the signed-in person of a request.

type Context = Readonly<RouterContextProvider>;

/** The signed-in staff member as every feature sees them. */
export type StaffUser = { id: number; username: string; role: Role | null; isAdmin: boolean };

export type StaffSessions = {
  /** The person whose valid session the request carries, read afresh (role included); null if none. */
  currentUser(request: Request): Promise<StaffUser | null>;
};

/** Provided by the composition root from features/auth. */
export const staffSessionsKey = createServiceKey<StaffSessions>("staff sessions");

export async function getCurrentUser(request: Request, context: Context): Promise<StaffUser | null> {
  return (await servicesOf(context, staffSessionsKey)).currentUser(request);
}

const jsonError = (status: number, message: string) => Response.json({ message }, { status });

export const FORBIDDEN_MESSAGE = "Your role does not allow this.";

/** For the JSON API: 401 without a valid session, 403 when the role lacks `permission` (thrown). */
export async function requireApiPermission(
  request: Request,
  context: Context,
  permission: Permission,
): Promise<StaffUser> {
  const user = await getCurrentUser(request, context);
  if (!user) throw jsonError(401, "Sign in to continue.");
  if (!can(user.role, permission)) throw jsonError(403, FORBIDDEN_MESSAGE);
  return user;
}

/**
 * For back-office pages (SPEC section 2): no user → /admin/login; a user whose role may not open the
 * page (its section in permissions.ts, or a page the table does not list) → / (thrown redirects).
 */
export async function requireBackOfficePage(request: Request, context: Context): Promise<StaffUser> {
  const user = await getCurrentUser(request, context);
  if (!user) {
    const url = new URL(request.url);
    // NOTE: a client-side navigation asks for `<page>.data` (single fetch); after signing in the
    // person wants the page, not its serialized data.
    const pathname = url.pathname.replace(/\.data$/, "");
    url.searchParams.delete("_routes");
    throw redirect(`/admin/login?next=${encodeURIComponent(pathname + url.search)}`);
  }
  const section = sectionFor(new URL(request.url).pathname);
  if (!section || !can(user.role, section.permission)) throw redirect("/");
  return user;
}

/**
 * Refuses a state-changing request that a browser marks as coming from another site (CSRF). Browsers
 * send Sec-Fetch-Site and/or Origin with every cross-site POST/PATCH/DELETE; a client that sends
 * neither (curl, a script) is not a browser carrying a victim's cookies.
 */
export function isCrossOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = request.headers.get("origin");
  if (origin && origin !== new URL(request.url).origin) return true;
  return false;
}

export function assertSameOrigin(request: Request): void {
  if (isCrossOrigin(request)) throw jsonError(403, "Cross-site requests are not allowed.");
}
