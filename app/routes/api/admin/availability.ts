import {
  handleGetAvailability,
  handlePutAvailability,
} from "#app/features/meetings/availability-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/availability";

// Issue 34: GET /api/admin/availability[?userId=] and PUT (the whole profile).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleGetAvailability(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "PUT") return handlePutAvailability(request, context);
  return methodNotAllowed("GET, HEAD, PUT");
}
