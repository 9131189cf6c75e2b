import { redirect } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { homePathFor } from "#app/lib/permissions.ts";
import { getCurrentUser } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/admin-index";

// /admin is not a page of its own: the home of the person's role (the dashboard, or analytics for
// marketing), whose guard sends visitors on to the login.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  return redirect(user ? homePathFor(user.role) : DASHBOARD_PATH);
}
