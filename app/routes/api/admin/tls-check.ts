import { handleTlsCheckApi } from "#app/features/audits/tls/tls-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/tls-check";

// Issue 25: POST /api/admin/tls-check { url }.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleTlsCheckApi(request, context);
}

export const loader = () => methodNotAllowed("POST");
