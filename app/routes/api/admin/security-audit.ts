import { handleSecurityAuditApi } from "#app/features/audits/audit-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/security-audit";

// SPEC section 7: POST /api/admin/security-audit { url }.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleSecurityAuditApi(request, context);
}

export const loader = () => methodNotAllowed("POST");
