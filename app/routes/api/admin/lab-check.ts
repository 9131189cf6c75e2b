import { handleLabCheckApi } from "#app/features/audits/lab/lab-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/lab-check";

// Issue 25: POST /api/admin/lab-check { url, device }.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleLabCheckApi(request, context);
}

export const loader = () => methodNotAllowed("POST");
