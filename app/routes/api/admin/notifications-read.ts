import { handleMarkRead } from "#app/features/notifications/notifications-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/notifications-read";

// Issue 35: POST /api/admin/notifications/read { ids } or { all: true }, the caller's own only.
export function loader() {
  return methodNotAllowed("POST");
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "POST") return handleMarkRead(request, context);
  return methodNotAllowed("POST");
}
