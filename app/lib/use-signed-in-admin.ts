import { useEffect, useState } from "react";

/**
 * A readable cookie set at sign-in next to the HttpOnly session cookie. It only says "ask the
 * server": public pages are prerendered (the same HTML for everyone), so the header learns after
 * hydration whether to show the Admin link, and only browsers that signed in ever ask.
 */
export const ADMIN_HINT_COOKIE = "admin_hint";

let cached: Promise<boolean> | undefined;

function askServer(): Promise<boolean> {
  cached ??= fetch("/api/user", { headers: { Accept: "application/json" } })
    .then(
      async (response) => response.ok && ((await response.json()) as { isAdmin?: unknown }).isAdmin === true,
    )
    .catch(() => false);
  return cached;
}

/** True once the server confirms that this browser's session belongs to an admin (SPEC section 1). */
export function useSignedInAdmin(): boolean {
  const [admin, setAdmin] = useState(false);
  useEffect(() => {
    if (!document.cookie.split("; ").includes(`${ADMIN_HINT_COOKIE}=1`)) return;
    let live = true;
    askServer().then((confirmed) => {
      if (live) setAdmin(confirmed);
    });
    return () => {
      live = false;
    };
  }, []);
  return admin;
}
