import { DASHBOARD_PATH, LOGIN_PATH } from "#app/lib/admin-paths.ts";
import { can, homePathFor, type Role, sectionFor } from "#app/lib/permissions.ts";

// Where the back office sends people after signing in, shared by the login page's action (no
// JavaScript) and its script.

/**
 * `next` when it is a path of this site's back office, else the dashboard. Anything else (another
 * origin, `//evil.example`, a back-slash trick, the login page itself) is ignored: an open redirect
 * after sign-in is a phishing tool.
 */
export function safeAdminNext(next: string | null | undefined): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.includes("\\")) return DASHBOARD_PATH;
  const base = "http://admin.invalid";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return DASHBOARD_PATH;
  }
  if (url.origin !== base) return DASHBOARD_PATH;
  if (url.pathname !== "/admin" && !url.pathname.startsWith("/admin/")) return DASHBOARD_PATH;
  if (url.pathname === LOGIN_PATH) return DASHBOARD_PATH;
  return url.pathname + url.search;
}

/**
 * Where someone with `role` goes after signing in: `next` when it is safe and their role may open
 * it, else their role's home (the dashboard, or analytics for marketing: issue 23).
 */
export function landingPath(role: Role | null | undefined, next: string | null | undefined): string {
  const home = homePathFor(role);
  const path = safeAdminNext(next);
  const section = sectionFor(path.split("?")[0] ?? path);
  return section && can(role, section.permission) ? path : home;
}
