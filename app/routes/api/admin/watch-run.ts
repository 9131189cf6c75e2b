import { handleRunWatch } from "#app/features/audits/watches/watch-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/watch-run";

// Issue 25: POST /api/admin/watches/:id/run runs the watch now (201 with the run; 409 running; 503 busy).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleRunWatch(request, context, params.id);
}

export const loader = () => methodNotAllowed("POST");
