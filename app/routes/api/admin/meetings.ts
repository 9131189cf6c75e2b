import { handleListMeetings } from "#app/features/meetings/meeting-staff-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/meetings";

// Issue 34: GET /api/admin/meetings[?when=upcoming|past&host=&status=&page=&pageSize=] for staff.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListMeetings(request, context);
}

export function action() {
  return methodNotAllowed("GET");
}
