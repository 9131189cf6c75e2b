import { handleResetTwoFactorApi } from "#app/features/auth/two-factor-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/user-two-factor";

// Issue 13: DELETE /api/admin/users/:id/two-factor resets a colleague's two-factor sign-in.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  return handleResetTwoFactorApi(request, context, params.id);
}

export const loader = () => methodNotAllowed("DELETE");
