import { Outlet } from "react-router";
import { useConfirmedAdminFlags } from "#app/features/auth/admin-flags.ts";
import { adminUser, guardAdminRequest } from "#app/features/auth/admin-guard.server.ts";
import type { Route } from "./+types/guarded-layout";

// SPEC section 2, route protection, decided by the server: every page below (documents, data
// requests and form posts alike) needs a session whose role may open it (permissions.ts, issue 23).
// Signed out → /admin/login?next=…, signed in without that right → /. The browser's localStorage is
// never consulted.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => {
    await guardAdminRequest(request, context);
  },
];

/**
 * The staff member the guard let in, for SPEC section 4's localStorage hints (see
 * useConfirmedAdminFlags) and for the pages below to show what their role allows (`can`).
 */
export function loader({ context }: Route.LoaderArgs) {
  const { id, username, role, isAdmin } = adminUser(context);
  return { user: { id, username, role, isAdmin } };
}

export default function GuardedLayout({ loaderData }: Route.ComponentProps) {
  useConfirmedAdminFlags(loaderData.user);
  return <Outlet />;
}
