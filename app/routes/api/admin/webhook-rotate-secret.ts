import { handleRotateSecret } from "#app/features/webhooks/webhook-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/webhook-rotate-secret";

// Issue 10: POST /api/admin/webhooks/:id/rotate-secret answers the new secret, this once.
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "POST") return handleRotateSecret(request, context, params.id);
  return methodNotAllowed("POST");
}
