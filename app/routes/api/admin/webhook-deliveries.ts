import { handleListDeliveries } from "#app/features/webhooks/webhook-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/webhook-deliveries";

// Issue 10: GET /api/admin/webhooks/:id/deliveries (the delivery log, newest first).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleListDeliveries(request, context, params.id);
}

export function action() {
  return methodNotAllowed("GET");
}
