import { useState } from "react";
import { data, redirect, useRevalidator } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { useFollowAdminFlag } from "#app/features/auth/admin-flags.ts";
import { authServices } from "#app/features/auth/auth-context.server.ts";
import { attemptLogin, attemptSecondStep, cancelSecondStep } from "#app/features/auth/auth-http.server.ts";
import { readPendingLoginToken } from "#app/features/auth/cookies.server.ts";
import { landingPath } from "#app/features/auth/safe-admin-next.ts";
import { PASSWORD_SET_PARAM } from "#app/features/auth/staff-paths.ts";
import { LoginForm } from "#app/features/auth/ui/login-form.tsx";
import { EnrolledNotice, SecondStepForm } from "#app/features/auth/ui/second-step-form.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { readForm } from "#app/lib/http.server.ts";
import { assertSameOrigin, getCurrentUser } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/login";

// SPEC section 2 /admin/login. A signed-in admin goes straight on, as the server sees the session.
// Issue 13: after a right password an account with two-factor sign-in (or one that must set it up)
// gets a second step here, named by the pending-login cookie; this page shows it while it lasts.

export const meta: Route.MetaFunction = () => adminMeta("Admin Login");

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getCurrentUser(request, context);
  // Any back-office role goes on: to `next` if the role may open it, else to the role's home.
  if (user?.role) throw redirect(landingPath(user.role, url.searchParams.get("next")));
  const { auth } = await authServices(context);
  return {
    loggedOut: url.searchParams.has("logged-out"),
    passwordSet: url.searchParams.has(PASSWORD_SET_PARAM),
    // A session that is not an admin's: localStorage's isAdmin flag, if any, is wrong.
    signedInNonAdmin: user !== null,
    next: url.searchParams.get("next"),
    pending: await auth.pendingLogin(readPendingLoginToken(request)),
  };
}

const text = (form: URLSearchParams, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The page itself again (keeping `next`), after a step that did not sign in yet. */
const samePage = (request: Request) => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};

/** The forms without JavaScript: password, then the code, or starting again. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  const rawNext = new URL(request.url).searchParams.get("next");
  const headers = new Headers();
  const setCookies = (cookies: string[] = []) => {
    for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  };
  const intent = form.get("intent");
  if (intent === "cancel") {
    setCookies(await cancelSecondStep(request, context));
    throw redirect(samePage(request), { headers });
  }
  if (intent === "code") {
    const outcome = await attemptSecondStep(request, context, { code: text(form, "code") });
    setCookies(outcome.cookies);
    if (outcome.kind === "refused") {
      for (const [name, value] of Object.entries(outcome.headers ?? {})) headers.set(name, value);
      return data(
        { step: outcome.restart ? ("password" as const) : ("code" as const), message: outcome.message },
        { status: outcome.status, headers },
      );
    }
    // Just enrolled: signed in, and the recovery codes are shown this once (never in a URL).
    if (outcome.recoveryCodes)
      return data(
        {
          step: "enrolled" as const,
          codes: outcome.recoveryCodes,
          next: landingPath(outcome.user.role, rawNext),
        },
        { headers },
      );
    throw redirect(landingPath(outcome.user.role, rawNext), { headers });
  }
  const username = text(form, "username");
  const outcome = await attemptLogin(request, context, { username, password: text(form, "password") });
  if (outcome.kind === "refused") {
    return data(
      { step: "password" as const, message: outcome.message, username },
      { status: outcome.status, headers: outcome.headers },
    );
  }
  setCookies(outcome.cookies);
  // The second step: this page again, which shows it for as long as the pending login lasts.
  if (outcome.kind === "second-step") throw redirect(samePage(request), { headers });
  throw redirect(landingPath(outcome.user.role, rawNext), { headers });
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  const [restartMessage, setRestartMessage] = useState<string | null>(null);
  const pending = actionData?.step === "password" ? null : loaderData.pending;
  useFollowAdminFlag({
    next: loaderData.next,
    stale: loaderData.loggedOut || loaderData.passwordSet || loaderData.signedInNonAdmin || pending !== null,
  });
  const restart = (message: string) => {
    setRestartMessage(message);
    void revalidator.revalidate();
  };
  let card: React.ReactNode;
  if (actionData?.step === "enrolled") {
    card = <EnrolledNotice codes={actionData.codes} next={actionData.next} />;
  } else if (pending) {
    card = (
      <SecondStepForm
        username={pending.username}
        purpose={pending.purpose}
        enrolment={pending.enrolment}
        serverMessage={actionData?.step === "code" ? actionData.message : undefined}
        onRestart={restart}
      />
    );
  } else {
    const refusal = actionData?.step === "password" ? actionData : undefined;
    card = (
      <LoginForm
        serverMessage={refusal?.message ?? restartMessage ?? undefined}
        defaultUsername={refusal && "username" in refusal ? String(refusal.username) : undefined}
        onSecondStep={() => {
          setRestartMessage(null);
          void revalidator.revalidate();
        }}
      />
    );
  }
  return (
    <div className="mx-auto grid max-w-md gap-6 px-4 py-12 sm:py-16">
      <h1 className="text-center text-3xl font-bold tracking-tight">Admin Login</h1>
      {loaderData.loggedOut && !actionData && !pending ? (
        <Banner tone="success">You have been successfully logged out.</Banner>
      ) : null}
      {loaderData.passwordSet && !actionData && !pending ? (
        <Banner tone="success">Your password is set. Sign in with your username and new password.</Banner>
      ) : null}
      <div className="rounded-xl border border-line bg-white p-6 shadow-sm sm:p-8">{card}</div>
    </div>
  );
}
