import type { RouterContextProvider } from "react-router";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { authServices } from "./auth-context.server.ts";
import { NOT_FOUND_MESSAGE, StaffChangeError } from "./staff.server.ts";
import { parseStaffId } from "./staff-http.server.ts";
import { resetColleagueTwoFactor } from "./two-factor-store.server.ts";

type Context = Readonly<RouterContextProvider>;

/** DELETE /api/admin/users/:id/two-factor: 204 (whether or not it was on), 404, or 409 for oneself. */
export async function handleResetTwoFactorApi(
  request: Request,
  context: Context,
  rawId: string | undefined,
): Promise<Response> {
  const user = await requireApiPermission(request, context, "staff.manage");
  assertSameOrigin(request);
  const id = parseStaffId(rawId ?? null);
  if (id === null) return Response.json({ message: NOT_FOUND_MESSAGE }, { status: 404 });
  const { database } = await authServices(context);
  try {
    await resetColleagueTwoFactor(database.db, { id, actor: user });
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof StaffChangeError)
      return Response.json({ message: error.message }, { status: error.status });
    throw error;
  }
}
