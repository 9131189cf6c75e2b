import {
  handleDeleteWatch,
  handleGetWatch,
  handleUpdateWatch,
} from "#app/features/audits/watches/watch-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/watch";

// Issue 25: GET /api/admin/watches/:id[?run=N], PATCH (change or pause), DELETE (204).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleGetWatch(request, context, params.id);
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "PATCH") return handleUpdateWatch(request, context, params.id);
  if (request.method === "DELETE") return handleDeleteWatch(request, context, params.id);
  return methodNotAllowed("GET, PATCH, DELETE");
}
