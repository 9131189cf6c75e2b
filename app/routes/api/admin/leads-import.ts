import { handleImport } from "#app/features/leads/lead-intake-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/leads-import";

// Issue 23: POST /api/admin/leads/import (multipart `file`, optional `mapping`, `commit=true`).
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleImport(request, context);
}
