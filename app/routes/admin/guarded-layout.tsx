import { Outlet } from "react-router";
import { guardAdminRequest } from "#app/features/admin-ui/admin-guard.server.ts";
import type { Route } from "./+types/guarded-layout";

// SPEC section 2, route protection, decided by the server: every page below (documents, data
// requests and form posts alike) needs an admin session. Signed out → /admin/login?next=…, signed
// in without admin rights → /. The browser's localStorage is never consulted.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => {
    await guardAdminRequest(request, context);
  },
];

export default function GuardedLayout() {
  return <Outlet />;
}
