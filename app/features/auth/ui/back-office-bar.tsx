import { Link, useLocation, useRouteLoaderData } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { can, isRole } from "../permissions.ts";
import { LogoutButton } from "./logout-button.tsx";

/** What the guarded layout's loader hands down (routes/admin/guarded-layout.tsx). */
type GuardedLayoutData = { user?: { role?: unknown } };

/**
 * The top of every back-office page below the dashboard: the way back, and Logout. A role that may
 * not open the dashboard (marketing) goes back to analytics instead: the dashboard would send it home.
 */
export function BackOfficeBar() {
  const layout = useRouteLoaderData("routes/admin/guarded-layout") as GuardedLayoutData | undefined;
  const role = isRole(layout?.user?.role) ? layout.user.role : null;
  const toAnalytics = role !== null && !can(role, "leads.read");
  const { pathname } = useLocation();
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      {toAnalytics && pathname === "/admin/analytics" ? (
        // Already at this role's home: no way back to show (the span keeps Logout on the right).
        <span />
      ) : (
        <Link
          to={toAnalytics ? "/admin/analytics" : DASHBOARD_PATH}
          className="font-semibold text-brand underline underline-offset-2"
        >
          {toAnalytics ? "← Back to Analytics" : "← Back to Dashboard"}
        </Link>
      )}
      <LogoutButton />
    </div>
  );
}
