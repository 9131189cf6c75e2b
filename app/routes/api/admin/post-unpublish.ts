import { handleUnpublishPost } from "#app/features/content/posts/posts-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/post-unpublish";

// Issue 24: POST /api/admin/posts/:id/unpublish takes a post off the site (or cancels its schedule).
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleUnpublishPost(request, context, params.id);
}
