import { handleLoginApi } from "#app/features/auth/auth-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/login";

// SPEC section 7: POST /api/login { username, password }.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleLoginApi(request, context);
}

export const loader = () => methodNotAllowed("POST");
