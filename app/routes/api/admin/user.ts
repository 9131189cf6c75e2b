import { handlePatchStaff } from "#app/features/auth/staff-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/user";

// Issue 10: PATCH /api/admin/users/:id { disabled, password }.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed("PATCH");
  return handlePatchStaff(request, context, params.id);
}

export const loader = () => methodNotAllowed("PATCH");
