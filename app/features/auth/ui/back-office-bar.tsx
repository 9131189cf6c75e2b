import { Link } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { LogoutButton } from "./logout-button.tsx";

/** The top of every back-office page below the dashboard: the way back, and Logout. */
export function BackOfficeBar() {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <Link to={DASHBOARD_PATH} className="font-semibold text-brand underline underline-offset-2">
        ← Back to Dashboard
      </Link>
      <LogoutButton />
    </div>
  );
}
