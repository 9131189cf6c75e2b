import { handleLeadApi } from "#app/features/leads/lead-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/demo-request";

// SPEC section 7: POST /api/demo-request, for the demo and the investor forms alike.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleLeadApi(request, context);
}

export const loader = () => methodNotAllowed("POST");
