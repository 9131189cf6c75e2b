import { readCookie } from "./cookies.ts";

/**
 * A readable cookie set at sign-in next to the HttpOnly session cookie. It only says "ask the
 * server": public pages are the same static HTML for everyone, so the header learns from /api/user
 * whether to show the Admin link, and only browsers that signed in ever ask.
 */
export const ADMIN_HINT_COOKIE = "admin_hint";

/** True when this browser carries the hint (`document.cookie`). */
export function hasAdminHint(cookies: string): boolean {
  return readCookie(cookies, ADMIN_HINT_COOKIE) === "1";
}

/**
 * Where the header's Admin link leads for this browser's session, as the server says (GET
 * /api/user): the dashboard for an admin (SPEC section 1) and for sales, whose isAdmin is true;
 * `/admin`, the home of their role (analytics), for a marketer (issue 23). Null for no session, no
 * role, or any failure.
 */
export async function backOfficeLinkFor(): Promise<string | null> {
  try {
    const response = await fetch("/api/user", { headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    const user = (await response.json()) as { isAdmin?: unknown; role?: unknown };
    if (user.isAdmin === true) return "/admin/dashboard";
    return typeof user.role === "string" ? "/admin" : null;
  } catch {
    return null;
  }
}
