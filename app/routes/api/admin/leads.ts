import { handleListLeads } from "#app/features/leads/lead-admin-http.server.ts";
import { handleAddLead } from "#app/features/leads/lead-intake-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/leads";

// SPEC section 7: GET /api/admin/leads[?status=&q=&page=&pageSize=&spam=].
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListLeads(request, context);
}

// Issue 23: POST /api/admin/leads adds a lead by hand (a call, an event, a referral) → 201.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return handleAddLead(request, context);
}
