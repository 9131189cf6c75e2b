import { handleBulk } from "#app/features/leads/lead-admin-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/leads-bulk";

// POST /api/admin/leads/bulk { ids, action: status | owner | spam, value }.
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "POST") return handleBulk(request, context);
  return methodNotAllowed("POST");
}
