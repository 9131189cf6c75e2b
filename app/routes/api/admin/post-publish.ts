import { handlePublishPost } from "#app/features/content/posts/posts-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/post-publish";

// Issue 24: POST /api/admin/posts/:id/publish `{ at? }`: now, or scheduled for a future ISO time.
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handlePublishPost(request, context, params.id);
}
