import type { RouterContextProvider } from "react-router";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { authServices } from "./auth-context.server.ts";
import { readSessionToken } from "./cookies.server.ts";
import { StaffChangeError, signOutEverywhere } from "./staff.server.ts";
import { parseStaffId } from "./staff-http.server.ts";

// Issue 13: the signed-in user's sessions, and an admin signing someone out everywhere, through the
// JSON API. Staff only like the rest of /api/admin; changes refuse cross-site requests.

type Context = Readonly<RouterContextProvider>;

const SESSION_NOT_FOUND = "Session not found.";

/** GET /api/admin/sessions: the caller's live sessions, the most recently used first. */
export async function handleListSessions(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "account.self");
  const { auth } = await authServices(context);
  return Response.json(await auth.sessions(user.id, readSessionToken(request)));
}

/** DELETE /api/admin/sessions/:id: ends one of the caller's sessions (204), 404 when none of theirs. */
export async function handleEndSession(request: Request, context: Context, handle: string | undefined) {
  const user = await requireApiPermission(request, context, "account.self");
  assertSameOrigin(request);
  const { auth } = await authServices(context);
  return (await auth.endSession(user, handle ?? "", context.get(clientAddressContext)))
    ? new Response(null, { status: 204 })
    : Response.json({ message: SESSION_NOT_FOUND }, { status: 404 });
}

/** DELETE /api/admin/users/:id/sessions: signs that user out on every device (204), recorded. */
export async function handleSignOutEverywhere(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "staff.manage");
  assertSameOrigin(request);
  const id = parseStaffId(rawId ?? null);
  if (id === null) return Response.json({ message: "User not found." }, { status: 404 });
  const { database } = await authServices(context);
  try {
    await signOutEverywhere(database.db, { id, actor: user });
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof StaffChangeError)
      return Response.json({ message: error.message }, { status: error.status });
    throw error;
  }
}
