import { handleListLeads } from "#app/features/leads/lead-admin-http.server.ts";
import type { Route } from "./+types/leads";

// SPEC section 7: GET /api/admin/leads[?status=&q=&page=&pageSize=&spam=].
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListLeads(request, context);
}
