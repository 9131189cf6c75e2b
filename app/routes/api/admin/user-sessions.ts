import { handleSignOutEverywhere } from "#app/features/auth/sessions-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/user-sessions";

// Issue 13: DELETE /api/admin/users/:id/sessions signs that user out everywhere.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  return handleSignOutEverywhere(request, context, params.id);
}

export const loader = () => methodNotAllowed("DELETE");
