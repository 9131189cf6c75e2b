import { handleExportLeads } from "#app/features/leads/lead-admin-http.server.ts";
import type { Route } from "./+types/leads-export";

// SPEC section 7: GET /api/admin/leads/export — a CSV download.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleExportLeads(request, context);
}
