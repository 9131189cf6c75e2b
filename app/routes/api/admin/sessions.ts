import { handleListSessions } from "#app/features/auth/sessions-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/sessions";

// Issue 13: GET /api/admin/sessions, the caller's own sessions.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListSessions(request, context);
}

export const action = () => methodNotAllowed("GET");
