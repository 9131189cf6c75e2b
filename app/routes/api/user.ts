import { getCurrentUser } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/user";

// SPEC section 7: GET /api/user — the signed-in user, or 401 (the client reads that as "no user").
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  if (!user) return Response.json({ message: "Not signed in." }, { status: 401 });
  return Response.json(user);
}
