import { data, redirect } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { useFollowAdminFlag } from "#app/features/auth/admin-flags.ts";
import { attemptLogin } from "#app/features/auth/auth-http.server.ts";
import { assertSameOrigin, getCurrentUser } from "#app/features/auth/guard.server.ts";
import { safeAdminNext } from "#app/features/auth/safe-admin-next.ts";
import { PASSWORD_SET_PARAM } from "#app/features/auth/staff-paths.ts";
import { LoginForm } from "#app/features/auth/ui/login-form.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { readForm } from "#app/lib/http.server.ts";
import type { Route } from "./+types/login";

// SPEC section 2 /admin/login. A signed-in admin goes straight on, as the server sees the session.

export const meta: Route.MetaFunction = () => adminMeta("Admin Login");

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getCurrentUser(request, context);
  if (user?.isAdmin) throw redirect(safeAdminNext(url.searchParams.get("next")));
  return {
    loggedOut: url.searchParams.has("logged-out"),
    passwordSet: url.searchParams.has(PASSWORD_SET_PARAM),
    // A session that is not an admin's: localStorage's isAdmin flag, if any, is wrong.
    signedInNonAdmin: user !== null,
    next: url.searchParams.get("next"),
  };
}

const text = (form: URLSearchParams, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The form without JavaScript: signs in and redirects with the session cookie, or says why not. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  const username = text(form, "username");
  const outcome = await attemptLogin(request, context, { username, password: text(form, "password") });
  if (outcome.kind === "refused") {
    return data({ message: outcome.message, username }, { status: outcome.status, headers: outcome.headers });
  }
  const headers = new Headers();
  for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
  throw redirect(safeAdminNext(new URL(request.url).searchParams.get("next")), { headers });
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  useFollowAdminFlag({
    next: loaderData.next,
    stale: loaderData.loggedOut || loaderData.passwordSet || loaderData.signedInNonAdmin,
  });
  return (
    <div className="mx-auto grid max-w-md gap-6 px-4 py-12 sm:py-16">
      <h1 className="text-center text-3xl font-bold tracking-tight">Admin Login</h1>
      {loaderData.loggedOut && !actionData ? (
        <Banner tone="success">You have been successfully logged out.</Banner>
      ) : null}
      {loaderData.passwordSet && !actionData ? (
        <Banner tone="success">Your password is set. Sign in with your username and new password.</Banner>
      ) : null}
      <div className="rounded-xl border border-line bg-white p-6 shadow-sm sm:p-8">
        <LoginForm serverMessage={actionData?.message} defaultUsername={actionData?.username} />
      </div>
    </div>
  );
}
