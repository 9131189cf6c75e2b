import {
  handleDeleteCalendar,
  handleGetCalendar,
  handlePutCalendar,
} from "#app/features/meetings/calendar-api.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/availability-calendar";

// Issue 34: GET/PUT/DELETE /api/admin/availability/calendar[?userId=], a host's CalDAV calendar.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleGetCalendar(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "PUT") return handlePutCalendar(request, context);
  if (request.method === "DELETE") return handleDeleteCalendar(request, context);
  return methodNotAllowed("GET, HEAD, PUT, DELETE");
}
