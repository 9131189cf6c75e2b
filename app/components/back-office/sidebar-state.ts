// Issue 35: whether the back office's sidebar is collapsed to icons, remembered in a cookie so the
// server renders the page the way the person left it (no flash of the other width). Not a secret and
// not personal: the browser sets it with JavaScript, the account page's form without.

export const SIDEBAR_COOKIE = "cb_sidebar";
/** A year: a layout choice, not a session. */
const MAX_AGE_SECONDS = 365 * 24 * 3600;

export function sidebarCollapsed(cookieHeader: string | null): boolean {
  return /(?:^|;\s*)cb_sidebar=collapsed(?:;|$)/.test(cookieHeader ?? "");
}

/** The Set-Cookie value (and document.cookie's) for a choice. */
export function sidebarCookie(collapsed: boolean, secure: boolean): string {
  return `${SIDEBAR_COOKIE}=${collapsed ? "collapsed" : "expanded"}; Path=/admin; Max-Age=${MAX_AGE_SECONDS}; SameSite=Lax${secure ? "; Secure" : ""}`;
}
