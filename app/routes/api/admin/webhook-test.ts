import { handleTestWebhook } from "#app/features/webhooks/webhook-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/webhook-test";

// Issue 10: POST /api/admin/webhooks/:id/test [{ event }] queues a test event (202).
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "POST") return handleTestWebhook(request, context, params.id);
  return methodNotAllowed("POST");
}
