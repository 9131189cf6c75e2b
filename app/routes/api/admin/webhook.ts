import { handleDeleteWebhook } from "#app/features/webhooks/webhook-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/webhook";

// Issue 10: DELETE /api/admin/webhooks/:id (204).
export function loader() {
  return methodNotAllowed("DELETE");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "DELETE") return handleDeleteWebhook(request, context, params.id);
  return methodNotAllowed("DELETE");
}
