import { handlePatchTask } from "#app/features/leads/lead-tasks-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/task";

// Issue 35: PATCH /api/admin/tasks/:id { done?, body?, dueAt?, assigneeId? }.
export function loader() {
  return methodNotAllowed("PATCH");
}

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method === "PATCH") return handlePatchTask(request, context, params.id);
  return methodNotAllowed("PATCH");
}
