import {
  handleDeleteLead,
  handleGetLead,
  handlePatchLead,
} from "#app/features/leads/lead-admin-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/lead";

// SPEC section 7: PATCH /api/admin/leads/:id { status }; also GET (with history) and DELETE (erasure).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleGetLead(request, context, params.id);
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "PATCH") return handlePatchLead(request, context, params.id);
  if (request.method === "DELETE") return handleDeleteLead(request, context, params.id);
  return methodNotAllowed("GET, PATCH, DELETE");
}
