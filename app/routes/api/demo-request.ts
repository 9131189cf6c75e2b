import { handleLeadApi } from "#app/features/leads/lead-http.server.ts";
import type { Route } from "./+types/demo-request";

// SPEC section 7: POST /api/demo-request, for the demo and the investor forms alike.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return Response.json({ message: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  }
  return handleLeadApi(request, context);
}

export function loader() {
  return Response.json({ message: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
