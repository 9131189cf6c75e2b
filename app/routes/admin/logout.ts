import { redirect } from "react-router";
import { logout } from "#app/features/auth/auth-http.server.ts";
import { LOGIN_PATH } from "#app/lib/admin-paths.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/logout";

// The Logout button without JavaScript (with it, the button calls POST /api/logout): ends the
// session, then the login page says so.
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const headers = new Headers();
  for (const cookie of await logout(request, context)) headers.append("Set-Cookie", cookie);
  return redirect(`${LOGIN_PATH}?logged-out=1`, { headers });
}

// Signing out is a POST: a GET (a link, a prefetch, an <img> on another site) changes nothing.
export const loader = () => redirect(LOGIN_PATH);
