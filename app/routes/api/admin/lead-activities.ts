import { handleAddActivity } from "#app/features/leads/lead-tasks-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/lead-activities";

// Issue 35: POST /api/admin/leads/:id/activities { kind: note | call | email | task, ... }: 201 with
// the activity (the lead's timeline, GET /api/admin/leads/:id, lists it).
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "POST") return handleAddActivity(request, context, params.id);
  return methodNotAllowed("POST");
}
