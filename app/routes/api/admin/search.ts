import { handleSearch } from "#app/features/leads/search/search-http.server.ts";
import type { Route } from "./+types/search";

// Issue 23: GET /api/admin/search?q= — leads, people and companies matching q, for the shell's search.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleSearch(request, context);
}
