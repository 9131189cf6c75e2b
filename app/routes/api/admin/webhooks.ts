import { handleCreateWebhook, handleListWebhooks } from "#app/features/webhooks/webhook-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/webhooks";

// Issue 10: GET /api/admin/webhooks (the list), POST { url, events } (201 with the secret, once).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListWebhooks(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "POST") return handleCreateWebhook(request, context);
  return methodNotAllowed("GET, POST");
}
