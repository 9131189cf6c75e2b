import { handleErasePerson, handleGetPerson } from "#app/features/people/people-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/people";

// Issue 13: GET /api/admin/people?email= (subject access), DELETE /api/admin/people?email= (erasure).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleGetPerson(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  if (request.method === "DELETE") return handleErasePerson(request, context);
  return methodNotAllowed("GET, DELETE");
}
