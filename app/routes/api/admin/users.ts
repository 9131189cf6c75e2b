import { handleCreateStaff, handleListStaff } from "#app/features/auth/staff-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/users";

// Issue 10: GET /api/admin/users (the staff accounts) and POST /api/admin/users { username, password }.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListStaff(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return handleCreateStaff(request, context);
}
