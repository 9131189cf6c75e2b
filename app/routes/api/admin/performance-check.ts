import { handlePerformanceCheckApi } from "#app/features/audits/audit-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/performance-check";

// SPEC section 7: POST /api/admin/performance-check { url }.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handlePerformanceCheckApi(request, context);
}

export const loader = () => methodNotAllowed("POST");
