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

/** Asks the server whether this browser's session belongs to an admin; false on any failure. */
export async function isSignedInAdmin(): Promise<boolean> {
  try {
    const response = await fetch("/api/user", { headers: { Accept: "application/json" } });
    return response.ok && ((await response.json()) as { isAdmin?: unknown }).isAdmin === true;
  } catch {
    return false;
  }
}
