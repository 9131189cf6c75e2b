import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { authServices } from "#app/features/auth/auth-context.server.ts";
import { pendingLoginCookie } from "#app/features/auth/cookies.server.ts";
import {
  findSetPasswordLink,
  redeemSetPasswordLink,
  StaffChangeError,
} from "#app/features/auth/staff.server.ts";
import { LINK_GONE_MESSAGE, PASSWORDS_DIFFER } from "#app/features/auth/staff-messages.ts";
import { PASSWORD_SET_PARAM } from "#app/features/auth/staff-paths.ts";
import { NewPasswordFields } from "#app/features/auth/ui/new-password-fields.tsx";
import { passwordProblem, UserInputError } from "#app/features/auth/users.server.ts";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { LOGIN_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/set-password";

// Issue 10: the page a one-time set-password link opens. Public (the person has no password yet):
// the random token in the path is the credential, checked against its stored hash, single use and
// short-lived. Works without JavaScript: a plain form, then the login page.

// The token is in this page's address: the browser must not send it to another site as a Referer.
// NOTE: not `no-referrer`, under which Chromium sends `Origin: null` with the form's POST and the
// same-origin checks (ours and React Router's) refuse it.
export const meta: Route.MetaFunction = () => [
  ...adminMeta("Choose your password"),
  { name: "referrer", content: "same-origin" },
];

export async function loader({ context, params }: Route.LoaderArgs) {
  const { database } = await authServices(context);
  const link = await findSetPasswordLink(database.db, params.token);
  if (!link) return data({ link: null }, { status: 404 });
  return { link: { username: link.username, expires: formatDateTime(link.expiresAt) } };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  const password = form.get("password") ?? "";
  const problem = passwordProblem(password);
  const errors = problem
    ? { password: problem }
    : form.get("confirm") !== password
      ? { confirm: PASSWORDS_DIFFER }
      : null;
  if (errors) return data({ message: null, errors }, { status: 400 });
  const { database, auth } = await authServices(context);
  let redeemed: { userId: number };
  try {
    redeemed = await redeemSetPasswordLink(database.db, params.token, password);
  } catch (error) {
    if (error instanceof StaffChangeError)
      return data({ message: error.message, errors: {} }, { status: 404 });
    if (error instanceof UserInputError) {
      return data({ message: null, errors: { password: error.message } }, { status: 400 });
    }
    throw error;
  }
  // STAFF_2FA_REQUIRED and no second factor yet: the link is what lets this browser set one up
  // (ADR 020); the login page shows the set-up step for the pending login this cookie names.
  const enrolment = await auth.startLinkEnrolment(redeemed.userId);
  if (enrolment) {
    throw redirect(LOGIN_PATH, {
      headers: { "Set-Cookie": pendingLoginCookie(request, enrolment.pendingToken, enrolment.maxAgeSeconds) },
    });
  }
  throw redirect(`${LOGIN_PATH}?${PASSWORD_SET_PARAM}=1`);
}

export default function SetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const { link } = loaderData;
  const gone = !link || Boolean(actionData?.message);
  return (
    <div className="mx-auto grid max-w-md gap-6 px-4 py-12 sm:py-16">
      <h1 className="text-center text-3xl font-bold tracking-tight">Choose your password</h1>
      {gone ? (
        <div className="grid gap-4 rounded-xl border border-line bg-white p-6 text-center shadow-sm sm:p-8">
          <Banner tone="error">{actionData?.message ?? LINK_GONE_MESSAGE}</Banner>
          <Link to={LOGIN_PATH} className="font-semibold text-brand underline">
            Go to the admin login
          </Link>
        </div>
      ) : (
        <div className="grid gap-5 rounded-xl border border-line bg-white p-6 shadow-sm sm:p-8">
          <p className="leading-6">
            Welcome, <strong className="font-semibold">{link.username}</strong>. Choose the password you will
            sign in with. This link works once and expires on {link.expires} (UK time).
          </p>
          <Form method="post" className="grid gap-5">
            {/* Lets a password manager save the new password under the right name. */}
            <input
              type="text"
              hidden
              readOnly
              name="username"
              value={link.username}
              autoComplete="username"
            />
            <NewPasswordFields idPrefix="set" errors={actionData?.errors} />
            <Button type="submit" aria-busy={pending || undefined}>
              {pending ? "Saving..." : "Set password"}
            </Button>
          </Form>
        </div>
      )}
    </div>
  );
}
