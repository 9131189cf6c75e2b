import { createContext, type RouterContextProvider } from "react-router";
import { requireAdminPage } from "./guard.server.ts";
import type { PublicUser } from "./users.server.ts";

type Context = Readonly<RouterContextProvider>;

// The guarded layout's middleware checks the session once per request (document, data or form
// post) and leaves the admin here for the loaders and actions below it.

// NOTE: no default value, so reading it outside the guarded layout throws instead of running a
// loader without an admin.
const adminUserContext = createContext<PublicUser>();

/** Redirects to /admin/login or / (SPEC section 2) unless the session belongs to an admin. */
export async function guardAdminRequest(request: Request, context: Context): Promise<void> {
  context.set(adminUserContext, await requireAdminPage(request, context));
}

/** The admin the guard admitted (only under routes/admin/guarded-layout.tsx). */
export function adminUser(context: Context): PublicUser {
  return context.get(adminUserContext);
}
