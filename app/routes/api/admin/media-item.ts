import { handleDelete, handleGet, handlePatch } from "#app/features/content/media/media-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/media-item";

// Issue 24: GET, PATCH `{ alt }` and DELETE /api/admin/media/:id — one image of the media library.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleGet(request, context, params.id);
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "PATCH") return handlePatch(request, context, params.id);
  if (request.method === "DELETE") return handleDelete(request, context, params.id);
  return methodNotAllowed("GET, PATCH, DELETE");
}
