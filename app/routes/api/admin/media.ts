import { handleList, handleUpload } from "#app/features/content/media/media-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/media";

// Issue 24: GET /api/admin/media (the library, newest first, for the editor's image picker) and
// POST /api/admin/media (multipart `file`, `alt`: an image upload, 201 with its variants).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleList(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return handleUpload(request, context);
}
