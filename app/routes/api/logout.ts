import { handleLogoutApi } from "#app/features/auth/auth-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/logout";

// SPEC section 7: POST /api/logout.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleLogoutApi(request, context);
}

export const loader = () => methodNotAllowed("POST");
