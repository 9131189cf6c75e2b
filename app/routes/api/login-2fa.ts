import { handleSecondStepApi } from "#app/features/auth/auth-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/login-2fa";

// Issue 13: POST /api/login/2fa { code }, the second step after POST /api/login answered
// `{ twoFactorRequired: true }`; the pending-login cookie says whose sign-in it is.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleSecondStepApi(request, context);
}

export const loader = () => methodNotAllowed("POST");
