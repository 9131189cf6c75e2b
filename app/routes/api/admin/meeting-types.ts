import {
  handleCreateMeetingType,
  handleListMeetingTypes,
} from "#app/features/meetings/meeting-types-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/meeting-types";

// Issue 34: GET /api/admin/meeting-types, POST (a new type).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListMeetingTypes(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "POST") return handleCreateMeetingType(request, context);
  return methodNotAllowed("GET, HEAD, POST");
}
