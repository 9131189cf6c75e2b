import { handleAddNote } from "#app/features/leads/lead-admin-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/lead-notes";

// POST /api/admin/leads/:id/notes { body }: 201 with the note (the notes come with GET /api/admin/leads/:id).
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "POST") return handleAddNote(request, context, params.id);
  return methodNotAllowed("POST");
}
