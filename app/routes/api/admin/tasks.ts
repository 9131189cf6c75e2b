import { handleListTasks } from "#app/features/leads/lead-tasks-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/tasks";

// Issue 35: GET /api/admin/tasks?mine=1&state=open|done (everyone's or `assignee=<id>`: tasks.team).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListTasks(request, context);
}

export function action() {
  return methodNotAllowed("GET");
}
