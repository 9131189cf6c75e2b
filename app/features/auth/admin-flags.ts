import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { safeAdminNext } from "./safe-admin-next.ts";

// SPEC sections 3 and 4: after login the original client kept `adminUser` (the user as JSON) and
// `isAdmin` ('true') in localStorage, and its login page went straight to the dashboard when the flag
// was set. Kept for fidelity, as hints only: the server decides every access (the guard never reads
// them), so a forged or stale flag costs one redirect and is then cleared.

const IS_ADMIN = "isAdmin";
const ADMIN_USER = "adminUser";
/** Set (per tab) while the login page follows the flag to the dashboard: seen again, the flag was stale. */
const FOLLOWED_FLAG = "adminFlagFollowed";

type StoredUser = { id: number; username: string; isAdmin: boolean };

function storage(kind: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return window[kind];
  } catch {
    // Storage can be unavailable (privacy settings): the flags are only hints, so nothing is lost.
    return null;
  }
}

/** After a sign-in the server confirmed, or on a page the server let through. */
export function storeAdminFlags(user: StoredUser) {
  const local = storage("localStorage");
  try {
    local?.setItem(
      ADMIN_USER,
      JSON.stringify({ id: user.id, username: user.username, isAdmin: user.isAdmin }),
    );
    if (user.isAdmin) local?.setItem(IS_ADMIN, "true");
    else local?.removeItem(IS_ADMIN);
  } catch {
    // A full or refused storage: the hint is simply missing.
  }
}

/** SPEC section 4: signing out clears both flags. */
export function clearLocalAdminFlags() {
  const local = storage("localStorage");
  local?.removeItem(IS_ADMIN);
  local?.removeItem(ADMIN_USER);
}

export function hasAdminFlag(): boolean {
  return storage("localStorage")?.getItem(IS_ADMIN) === "true";
}

/**
 * The guarded pages' side: the server has just admitted this admin, so the flags are true (a sign-in
 * without JavaScript set none), and following them worked.
 */
export function useConfirmedAdminFlags(user: StoredUser) {
  const { id, username, isAdmin } = user;
  useEffect(() => {
    storeAdminFlags({ id, username, isAdmin });
    storage("sessionStorage")?.removeItem(FOLLOWED_FLAG);
  }, [id, username, isAdmin]);
}

/**
 * The login page's side (SPEC section 2: with isAdmin 'true' it goes to the dashboard). The server
 * renders this page only to someone without an admin session, so the flag is followed once; when the
 * dashboard's guard sends the visitor back here, the flag was stale and is cleared: no loop.
 */
export function useFollowAdminFlag({ next, stale }: { next: string | null; stale: boolean }) {
  const navigate = useNavigate();
  // NOTE: the guard's redirect back may land on this very URL with the page still mounted: each
  // arrival (a new location key) is judged afresh.
  const { key } = useLocation();
  useEffect(() => {
    void key;
    const session = storage("sessionStorage");
    const followed = session?.getItem(FOLLOWED_FLAG) === "1";
    session?.removeItem(FOLLOWED_FLAG);
    // Signed out, or the server says this browser's session is not an admin's: the flags are wrong.
    if (stale || followed || !session) {
      clearLocalAdminFlags();
      return;
    }
    if (!hasAdminFlag()) return;
    session.setItem(FOLLOWED_FLAG, "1");
    navigate(next ? safeAdminNext(next) : DASHBOARD_PATH, { replace: true });
  }, [navigate, next, stale, key]);
}
