import { handleListRevisions } from "#app/features/content/posts/posts-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/post-revisions";

// Issue 24: GET /api/admin/posts/:id/revisions[?before=&limit=&from=&to=], newest first; with
// from and to, what changed between those two revisions.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleListRevisions(request, context, params.id);
}

export const action = () => methodNotAllowed("GET");
