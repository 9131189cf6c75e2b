import { createContext, type RouterContextProvider, redirect } from "react-router";
import { can, type Permission } from "#app/lib/permissions.ts";
import { type StaffUser as PublicUser, requireBackOfficePage } from "./staff-guard.server.ts";

type Context = Readonly<RouterContextProvider>;

// The guarded layout's middleware checks the session and the page's permission once per request
// (document, data or form post) and leaves the staff member here for the loaders and actions below.

// NOTE: no default value, so reading it outside the guarded layout throws instead of running a
// loader without a signed-in staff member.
const adminUserContext = createContext<PublicUser>();

/**
 * Redirects to /admin/login or / (SPEC section 2) unless the session's role may open the page
 * (permissions.ts, BACK_OFFICE_SECTIONS).
 */
export async function guardAdminRequest(request: Request, context: Context): Promise<void> {
  context.set(adminUserContext, await requireBackOfficePage(request, context));
}

/** The staff member the guard admitted (only under routes/admin/guarded-layout.tsx). */
export function adminUser(context: Context): PublicUser {
  return context.get(adminUserContext);
}

/**
 * For a page action (a form's intent) that needs more than opening the page: the admitted staff
 * member, or the SPEC's answer to someone without the right (a redirect to /), thrown.
 */
export function requirePermission(context: Context, permission: Permission): PublicUser {
  const user = adminUser(context);
  if (!can(user.role, permission)) throw redirect("/");
  return user;
}
