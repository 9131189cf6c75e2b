import { handleCreatePost, handleListPosts } from "#app/features/content/posts/posts-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/posts";

// Issue 24: GET /api/admin/posts[?status=&kind=&q=&page=&pageSize=] lists the content studio's posts.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListPosts(request, context);
}

// POST /api/admin/posts creates a draft → 201 with its id, slug, status, revision and previewUrl.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return handleCreatePost(request, context);
}
