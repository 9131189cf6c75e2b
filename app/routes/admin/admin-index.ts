import { redirect } from "react-router";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";

// /admin is not a page of its own: the dashboard (whose guard sends visitors on to the login).
export const loader = () => redirect(DASHBOARD_PATH);
