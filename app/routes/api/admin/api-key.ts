import { handleRevokeApiKey } from "#app/features/leads/api-keys-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/api-key";

// DELETE /api/admin/api-keys/:id revokes the key.
export function loader() {
  return methodNotAllowed("DELETE");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "DELETE") return handleRevokeApiKey(request, context, params.id);
  return methodNotAllowed("DELETE");
}
