import { handlePatchMeeting } from "#app/features/meetings/meeting-staff-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/meeting";

// Issue 34: PATCH /api/admin/meetings/:id { outcome: "held" | "no_show" } once the meeting has started.
export function loader() {
  return methodNotAllowed("PATCH");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "PATCH") return handlePatchMeeting(request, context, params.id);
  return methodNotAllowed("PATCH");
}
