import { handleEndSession } from "#app/features/auth/sessions-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/session";

// Issue 13: DELETE /api/admin/sessions/:id ends one of the caller's sessions.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  return handleEndSession(request, context, params.id);
}

export const loader = () => methodNotAllowed("DELETE");
