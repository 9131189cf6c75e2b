import { handleListSecurityAuditsApi } from "#app/features/audits/audit-http.server.ts";
import type { Route } from "./+types/security-audits";

// SPEC section 7: GET /api/admin/security-audits.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleListSecurityAuditsApi(request, context);
}
