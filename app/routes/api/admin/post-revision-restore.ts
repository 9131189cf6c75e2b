import { handleRestoreRevision } from "#app/features/content/posts/posts-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/post-revision-restore";

// Issue 24: POST /api/admin/posts/:id/revisions/:revision/restore `{ revision? }` brings an earlier
// revision's fields back as a new revision.
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleRestoreRevision(request, context, params.id, params.revision);
}
