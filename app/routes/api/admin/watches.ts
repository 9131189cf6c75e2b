import { handleCreateWatch, handleListWatches } from "#app/features/audits/watches/watch-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/watches";

// Issue 25: GET /api/admin/watches (watches, open alerts, the checks offered), POST { url, checks, every }.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListWatches(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "POST") return handleCreateWatch(request, context);
  return methodNotAllowed("GET, POST");
}
