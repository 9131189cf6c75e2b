import { handleCreateApiKey, handleListApiKeys } from "#app/features/leads/api-keys-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/api-keys";

// GET /api/admin/api-keys (list), POST { name } (201 with the key, shown once).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListApiKeys(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "POST") return handleCreateApiKey(request, context);
  return methodNotAllowed("GET, POST");
}
