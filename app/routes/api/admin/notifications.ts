import { handleListNotifications } from "#app/features/notifications/notifications-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/notifications";

// Issue 35: GET /api/admin/notifications, the caller's own, unread first, with the unread count.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListNotifications(request, context);
}

export const action = () => methodNotAllowed("GET");
