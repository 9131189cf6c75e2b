import { data, Form, redirect, useNavigation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { sidebarCookie } from "#app/components/back-office/sidebar-state.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { authServices } from "#app/features/auth/auth-context.server.ts";
import { INVALID_CODE, tooManyLoginsMessage } from "#app/features/auth/auth-http.server.ts";
import { readSessionToken } from "#app/features/auth/cookies.server.ts";
import { HASHING_BUSY_MESSAGE } from "#app/features/auth/hashing-queue.server.ts";
import { MAX_PASSWORD_LENGTH } from "#app/features/auth/password.server.ts";
import { safeAdminNext } from "#app/features/auth/safe-admin-next.ts";
import { findStaffMember, setStaffEmail } from "#app/features/auth/staff.server.ts";
import { checkStaffEmail } from "#app/features/auth/staff-email.ts";
import { TwoFactorError } from "#app/features/auth/two-factor-store.server.ts";
import { DISMISS_CODE_NOTICE_INTENT } from "#app/features/auth/ui/code-failure-notice.tsx";
import {
  TwoFactorPanel,
  type TwoFactorPanelView,
  type TwoFactorResult,
} from "#app/features/auth/ui/two-factor-panel.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { leadsServices } from "#app/features/leads/leads-context.server.ts";
import { chooseTaskDigest, taskDigestChosen } from "#app/features/leads/task-digest.server.ts";
import { TASK_DIGEST_INTENT, TaskDigestForm } from "#app/features/leads/ui/task-digest-form.tsx";
import { emailChoices, setEmailChoices } from "#app/features/notifications/notification-store.server.ts";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { ACCOUNT_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { can } from "#app/lib/permissions.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/account";

// Issue 13: your own sessions (started, last seen, browser, masked address) and ending any of them,
// with or without JavaScript (plain forms posting an `intent`). An admin signs someone else out
// everywhere from the staff page.

export const meta: Route.MetaFunction = () => adminMeta("Your account");

const NOTICES = {
  ended: "That session has ended: the device using it is signed out.",
  "ended-others": "Every other session has ended. Only this one is still signed in.",
  "2fa-off": "Two-factor sign-in is off: signing in asks for your password only.",
  email: "Your e-mail address is saved: invitations to meetings you host go there.",
  "task-digest-on": "Saved: your tasks come by e-mail each morning at 7:00.",
  "task-digest-off": "Saved: no morning e-mail of your tasks.",
  "notification-email": "Your e-mail choices are saved.",
} as const;

/** Passwords have at least 12 characters; a 6-digit code or a recovery code (10 + a dash) fewer. */
const isCodeShaped = (proof: string) => proof.replace(/[\s-]/g, "").length < 12;
type Notice = keyof typeof NOTICES;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const { auth, database } = await authServices(context);
  const [sessions, status, enrolment, member, choices] = await Promise.all([
    auth.sessions(user.id, readSessionToken(request)),
    auth.twoFactor.status(user.id),
    auth.twoFactor.enrolment(user),
    findStaffMember(database.db, user.id),
    emailChoices(database.db, user.id),
  ]);
  const notice = new URL(request.url).searchParams.get("notice");
  // Issue 35: the morning e-mail of one's tasks, for whoever has tasks.
  const taskDigest = can(user.role, "tasks.own")
    ? { chosen: await taskDigestChosen((await leadsServices(context)).database.db, user.id) }
    : null;
  return {
    taskDigest,
    username: user.username,
    email: member?.email ?? null,
    emailChoices: { assignment: choices.assignment, taskDue: choices.taskDue },
    twoFactor: {
      enabled: status.enabled,
      since: status.enabledAt ? formatDateTime(status.enabledAt) : null,
      recoveryCodesLeft: status.recoveryCodesLeft,
      required: auth.twoFactorRequired,
      enrolment: status.enabled ? null : (enrolment ?? null),
    } satisfies TwoFactorPanelView,
    sessions: sessions.map((session) => ({
      ...session,
      started: formatDateTime(session.createdAt),
      lastSeen: formatDateTime(session.lastSeenAt),
    })),
    notice: notice && notice in NOTICES ? NOTICES[notice as Notice] : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
  const { auth, database } = await authServices(context);
  const token = readSessionToken(request);
  const clientAddress = context.get(clientAddressContext);
  const code = (form.get("code") ?? "").slice(0, 64);
  const refuse = (kind: TwoFactorResult["form"], message: string, status = 400) =>
    data({ twoFactor: { form: kind, message } satisfies TwoFactorResult }, { status });
  const refusedProof = (
    kind: TwoFactorResult["form"],
    outcome: "invalid" | "busy" | "required" | { throttled: number },
  ) => {
    if (outcome === "invalid")
      return refuse(
        kind,
        kind === "disable"
          ? "That is not a current code or your password."
          : kind === "confirm-password"
            ? "That is not your password."
            : INVALID_CODE,
        401,
      );
    if (outcome === "required")
      return refuse(kind, "Two-factor sign-in is required for all staff here.", 409);
    if (outcome === "busy") return refuse(kind, HASHING_BUSY_MESSAGE, 503);
    return refuse(kind, tooManyLoginsMessage(outcome.throttled), 429);
  };
  switch (form.get("intent")) {
    // Issue 35: the sidebar collapsed or not, without JavaScript (with it, the shell sets the cookie).
    case "sidebar": {
      const collapsed = form.get("sidebar") === "collapsed";
      throw redirect(safeAdminNext(form.get("next")), {
        headers: { "Set-Cookie": sidebarCookie(collapsed, new URL(request.url).protocol === "https:") },
      });
    }
    case "notification-email": {
      await setEmailChoices(database.db, user.id, {
        assignment: form.get("assignment") === "on",
        taskDue: form.get("taskDue") === "on",
      });
      throw redirect(`${ACCOUNT_PATH}?notice=notification-email#notification-email`);
    }
    case "email": {
      const email = checkStaffEmail(form.get("email") ?? "");
      if (!email.ok)
        return data(
          { email: { message: email.message, value: (form.get("email") ?? "").slice(0, 1000) } },
          { status: 400 },
        );
      await setStaffEmail(database.db, { id: user.id, email: email.email });
      throw redirect(`${ACCOUNT_PATH}?notice=email`);
    }
    case TASK_DIGEST_INTENT: {
      if (!can(user.role, "tasks.own")) return data({ message: "Your role has no tasks." }, { status: 403 });
      const on = form.get("on") === "1";
      await chooseTaskDigest(database.db, user.id, on);
      throw redirect(`${ACCOUNT_PATH}?notice=task-digest-${on ? "on" : "off"}#task-digest`);
    }
    case DISMISS_CODE_NOTICE_INTENT: {
      await auth.dismissCodeFailureNotices(user.id);
      throw redirect(safeAdminNext(form.get("next")));
    }
    case "2fa-start": {
      await auth.twoFactor.enrol(user).catch((error: unknown) => {
        // Already on (a second tab): the page below shows that.
        if (!(error instanceof TwoFactorError)) throw error;
      });
      throw redirect(`${ACCOUNT_PATH}#two-factor`);
    }
    case "2fa-cancel": {
      await auth.twoFactor.cancelEnrolment(user);
      throw redirect(`${ACCOUNT_PATH}#two-factor`);
    }
    case "2fa-confirm": {
      const password = (form.get("password") ?? "").slice(0, MAX_PASSWORD_LENGTH + 1);
      // Nothing typed is no attempt: refused before the throttle counts it.
      if (!password) return refuse("confirm-password", "Enter your password to turn it on.");
      const enabled = await auth.twoFactor.confirm(user, code, password, clientAddress);
      if (enabled === null) return refuse("confirm", `${INVALID_CODE}: enter the code your app shows now.`);
      if (typeof enabled !== "object" || !("recoveryCodes" in enabled))
        return refusedProof("confirm-password", enabled);
      return data({
        twoFactor: { recoveryCodes: enabled.recoveryCodes, done: "enabled" } satisfies TwoFactorResult,
      });
    }
    case "2fa-renew": {
      const renewed = await auth.twoFactor.renewRecoveryCodes(user, code, clientAddress);
      if (!Array.isArray(renewed)) return refusedProof("renew", renewed);
      return data({ twoFactor: { recoveryCodes: renewed, done: "renewed" } satisfies TwoFactorResult });
    }
    case "2fa-disable": {
      const proof = (form.get("proof") ?? "").slice(0, MAX_PASSWORD_LENGTH + 1);
      const outcome = await auth.twoFactor.disable(
        user,
        isCodeShaped(proof) ? { code: proof } : { password: proof },
        clientAddress,
      );
      if (outcome !== "off") return refusedProof("disable", outcome);
      throw redirect(`${ACCOUNT_PATH}?notice=2fa-off`);
    }
    case "end": {
      if (!(await auth.endSession(user, form.get("id") ?? "", context.get(clientAddressContext))))
        return data({ message: "That session has already ended." }, { status: 404 });
      throw redirect(`${ACCOUNT_PATH}?notice=ended`);
    }
    case "end-others": {
      if (!token) return data({ message: "Sign in again to do this." }, { status: 401 });
      await auth.endOtherSessions(user, token, context.get(clientAddressContext));
      throw redirect(`${ACCOUNT_PATH}?notice=ended-others`);
    }
    default:
      return data({ message: "Unknown action." }, { status: 400 });
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { username, email, emailChoices: choices, sessions, notice, twoFactor, taskDigest } = loaderData;
  const emailResult = actionData && "email" in actionData ? actionData.email : undefined;
  const twoFactorResult = actionData && "twoFactor" in actionData ? actionData.twoFactor : undefined;
  const sessionMessage = actionData && "message" in actionData ? actionData.message : undefined;
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const pendingId = navigation.state === "submitting" ? navigation.formData?.get("id") : null;
  const others = sessions.filter((session) => !session.current).length;

  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader title="Your account" description={<>Signed in as {username}.</>} />

      {sessionMessage ? <Banner tone="error">{sessionMessage}</Banner> : null}
      {notice && !actionData ? <Banner tone="success">{notice}</Banner> : null}

      <section
        id="email"
        aria-labelledby="email-heading"
        className="grid gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
      >
        <div>
          <h2 id="email-heading" className="text-2xl font-bold tracking-tight">
            Your e-mail address
          </h2>
          <p className="mt-1 max-w-3xl leading-7 text-ink-muted">
            Invitations to meetings you host, and their changes, are sent here. Leave it empty to receive
            none.
          </p>
        </div>
        <Form method="post" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="email" />
          <Field
            id="account-email"
            name="email"
            label="E-mail address"
            error={emailResult?.message}
            className="min-w-0 flex-1 basis-72"
          >
            {(control) => (
              <Input
                {...control}
                type="email"
                autoComplete="email"
                maxLength={254}
                defaultValue={emailResult?.value ?? email ?? ""}
              />
            )}
          </Field>
          <Button type="submit" variant="outline" aria-busy={pendingIntent === "email" || undefined}>
            {pendingIntent === "email" ? "Saving..." : "Save e-mail address"}
          </Button>
        </Form>
      </section>

      {taskDigest ? <TaskDigestForm chosen={taskDigest.chosen} email={email} /> : null}

      <section
        id="notification-email"
        aria-labelledby="notification-email-heading"
        className="grid gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
      >
        <div>
          <h2 id="notification-email-heading" className="text-2xl font-bold tracking-tight">
            Notifications by e-mail
          </h2>
          <p className="mt-1 max-w-3xl leading-7 text-ink-muted">
            The bell shows everything for you in the back office. Choose what also reaches you by e-mail
            {email ? ` at ${email}` : " (add your e-mail address above first)"}.
          </p>
        </div>
        <Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value="notification-email" />
          <fieldset className="grid gap-1">
            <legend className="sr-only">E-mail me</legend>
            <Checkbox
              name="assignment"
              defaultChecked={choices.assignment}
              label="Email me when a lead is assigned to me"
            />
            <Checkbox
              name="taskDue"
              defaultChecked={choices.taskDue}
              label="Email me when a task of mine is due"
            />
          </fieldset>
          <Button
            type="submit"
            variant="outline"
            className="justify-self-start"
            aria-busy={pendingIntent === "notification-email" || undefined}
          >
            {pendingIntent === "notification-email" ? "Saving..." : "Save e-mail choices"}
          </Button>
        </Form>
      </section>

      <section
        id="two-factor"
        aria-labelledby="two-factor-heading"
        className="grid gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
      >
        <h2 id="two-factor-heading" className="text-2xl font-bold tracking-tight">
          Two-factor sign-in
        </h2>
        <TwoFactorPanel view={twoFactor} result={twoFactorResult} />
      </section>

      <div>
        <h2 className="text-2xl font-bold tracking-tight">Your sessions</h2>
        <p className="mt-1 max-w-3xl leading-7 text-ink-muted">
          Every browser signed in as {username}. If you do not recognise one, or left one signed in on a
          shared computer, end it: that browser is signed out at once. Addresses are shown only up to their
          network.
        </p>
      </div>

      <ul
        aria-label="Sessions"
        className="divide-y divide-line rounded-xl border border-line bg-white shadow-sm"
      >
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center gap-x-6 gap-y-3 p-4 sm:px-6">
            <div className="min-w-0 flex-1 basis-64">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{session.browser}</span>
                {session.current ? (
                  <span className="inline-flex rounded-full bg-brand px-2 py-0.5 text-xs font-semibold text-white">
                    This browser
                  </span>
                ) : null}
              </p>
              <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-muted">
                <div className="flex gap-1">
                  <dt>Network</dt>
                  <dd className="font-mono text-ink">{session.address}</dd>
                </div>
                <div className="flex gap-1">
                  <dt>Signed in</dt>
                  <dd className="text-ink">{session.started}</dd>
                </div>
                <div className="flex gap-1">
                  <dt>Last active</dt>
                  <dd className="text-ink">{session.lastSeen}</dd>
                </div>
              </dl>
            </div>
            {session.current ? (
              <span className="text-sm text-ink-muted">Use Logout to end this one</span>
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="end" />
                <input type="hidden" name="id" value={session.id} />
                <Button
                  type="submit"
                  variant="outline"
                  size="sm"
                  aria-busy={pendingId === session.id || undefined}
                >
                  {pendingId === session.id ? "Ending..." : "End session"}
                  <span className="sr-only">
                    {" "}
                    of {session.browser}, last active {session.lastSeen}
                  </span>
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>

      {others > 0 ? (
        <Form method="post" className="justify-self-start">
          <input type="hidden" name="intent" value="end-others" />
          <Button type="submit" variant="danger" aria-busy={pendingIntent === "end-others" || undefined}>
            {pendingIntent === "end-others" ? "Ending..." : `End all other sessions (${others})`}
          </Button>
        </Form>
      ) : (
        <p className="text-ink-muted">This is your only session.</p>
      )}
    </div>
  );
}
