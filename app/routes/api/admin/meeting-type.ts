import { handleUpdateMeetingType } from "#app/features/meetings/meeting-types-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/meeting-type";

// Issue 34: PATCH /api/admin/meeting-types/:id.
export function loader() {
  return methodNotAllowed("PATCH");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "PATCH") return handleUpdateMeetingType(request, context, params.id);
  return methodNotAllowed("PATCH");
}
