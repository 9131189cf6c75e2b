import {
  handleDeletePost,
  handleGetPost,
  handlePatchPost,
} from "#app/features/content/posts/posts-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/post";

// Issue 24: GET, PATCH (a save carrying the revision it was made on; 409 when not the latest) and
// DELETE (a draft never published) /api/admin/posts/:id.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleGetPost(request, context, params.id);
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "PATCH") return handlePatchPost(request, context, params.id);
  if (request.method === "DELETE") return handleDeletePost(request, context, params.id);
  return methodNotAllowed("GET, PATCH, DELETE");
}
