import { data, redirect } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { authServices } from "#app/features/auth/auth-context.server.ts";
import { closedCodeSteps } from "#app/features/auth/code-failures.server.ts";
import { readSessionToken } from "#app/features/auth/cookies.server.ts";
import { listStaff } from "#app/features/auth/staff.server.ts";
import { listStaffEvents } from "#app/features/auth/staff-events.server.ts";
import {
  readStaffNotice,
  runStaffForm,
  type StaffNotice,
  staffNoticeHref,
} from "#app/features/auth/staff-forms.server.ts";
import { parseStaffId } from "#app/features/auth/staff-http.server.ts";
import { STAFF_PATH } from "#app/features/auth/staff-paths.ts";
import { CreateStaffForm } from "#app/features/auth/ui/create-staff-form.tsx";
import { formatDay } from "#app/features/auth/ui/staff-format.ts";
import { StaffHistory } from "#app/features/auth/ui/staff-history.tsx";
import { CONFIRM_DISABLE_PARAM, RESET_PARAM, StaffList } from "#app/features/auth/ui/staff-list.tsx";
import type { StaffActionData } from "#app/features/auth/ui/staff-view.ts";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/staff";

// Issue 10: the staff accounts, each with its role (issue 23, permissions.ts). Every change is a form
// posting an `intent` to this page, with or without JavaScript; a one-time link is shown in the
// answer to its POST, never put in a URL.

export const meta: Route.MetaFunction = () => adminMeta("Staff accounts");

const HISTORY_LIMIT = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const url = new URL(request.url);
  const { database } = await authServices(context);
  const [members, events] = await Promise.all([
    listStaff(database.db),
    listStaffEvents(database.db, HISTORY_LIMIT),
  ]);
  const notice = readStaffNotice(url);
  const closed = await closedCodeSteps(
    database.db,
    members.filter((member) => member.twoFactor).map((member) => member.id),
    new Date(),
  );
  return {
    me: user.id,
    username: user.username,
    members: members.map((member) => ({
      id: member.id,
      username: member.username,
      role: member.role,
      isAdmin: member.isAdmin,
      disabled: member.disabled,
      passwordSet: member.passwordSet,
      twoFactor: member.twoFactor,
      email: member.email,
      codeStepClosed: closed.has(member.id),
      lastSignIn: member.lastSignInAt ? formatDateTime(member.lastSignInAt) : null,
      added: formatDay(member.createdAt),
    })),
    events: events.map((event) => ({ ...event, when: formatDateTime(event.createdAt) })),
    notice: notice
      ? { notice: notice.notice, username: members.find((one) => one.id === notice.id)?.username }
      : null,
    resetId: parseStaffId(url.searchParams.get(RESET_PARAM)),
    confirmDisableId: parseStaffId(url.searchParams.get(CONFIRM_DISABLE_PARAM)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
  const { database, env } = await authServices(context);
  const outcome = await runStaffForm(
    database.db,
    request,
    form,
    user,
    readSessionToken(request),
    env.PUBLIC_URL,
  );
  if (outcome.kind === "done") throw redirect(staffNoticeHref(STAFF_PATH, outcome.notice, outcome.id));
  // NOTE: a link is answered, not redirected to: it must not land in the address bar or history.
  if (outcome.kind === "link") return data<StaffActionData>(outcome);
  return data<StaffActionData>(outcome, { status: outcome.status });
}

const NOTICE_TEXT: Record<StaffNotice, (name: string) => string> = {
  created: (name) => `${name} was added and can sign in now.`,
  disabled: (name) => `${name} is disabled: every session of theirs has ended.`,
  enabled: (name) => `${name} is enabled and can sign in again.`,
  password: (name) => `The password of ${name} was changed; their other sessions have ended.`,
  "signed-out": (name) => `${name} is signed out everywhere: every session of theirs has ended.`,
  role: (name) => `${name} has a new role: it holds from their next click.`,
  "two-factor-reset": (name) =>
    `Two-factor sign-in for ${name} is reset: they sign in with their password and set it up again.`,
  email: (name) => `The e-mail address of ${name} is saved: meeting invitations for them go there.`,
  "code-step-reopened": (name) =>
    `The code step for ${name} is open again: browsers they have not signed in from may enter codes today.`,
};

export default function StaffPage({ loaderData, actionData }: Route.ComponentProps) {
  const { me, username, members, events, notice, resetId, confirmDisableId } = loaderData;
  const createResult =
    actionData && (actionData.kind === "refused" ? actionData.form === "create" : actionData.link.created)
      ? actionData
      : undefined;
  const enabledAdmins = members.filter((member) => member.role === "admin" && !member.disabled).length;

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6">
      <PageHeader
        title="Staff accounts"
        description={
          <>
            Each account has a role: admins can do everything, sales work the leads, marketing sees analytics,
            audits and content. Signed in as {username}.
          </>
        }
      />

      {notice?.username ? (
        <Banner tone="success">{NOTICE_TEXT[notice.notice](notice.username)}</Banner>
      ) : null}

      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <section aria-labelledby="staff-heading" className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="staff-heading" className="text-2xl font-bold tracking-tight">
              Team
            </h2>
            <p className="text-sm text-ink-muted">
              {members.length} {members.length === 1 ? "account" : "accounts"}, {enabledAdmins} enabled{" "}
              {enabledAdmins === 1 ? "admin" : "admins"}
            </p>
          </div>
          <StaffList
            members={members}
            me={me}
            resetId={resetId}
            confirmDisableId={confirmDisableId}
            pageResult={createResult ? undefined : actionData}
          />
          <p className="text-sm leading-6 text-ink-muted">
            At least one enabled admin with a password always remains, so the back office cannot lock everyone
            out.
          </p>
        </section>

        <section
          aria-labelledby="add-heading"
          className="flex flex-col gap-4 rounded-xl border border-line bg-white p-6 shadow-sm"
        >
          <div>
            <h2 id="add-heading" className="text-xl font-semibold">
              Add a colleague
            </h2>
            <p className="mt-1 text-sm leading-6 text-ink-muted">
              Choose what they need: you can change it later.
            </p>
          </div>
          <CreateStaffForm pageResult={createResult} />
        </section>
      </div>

      <section aria-labelledby="history-heading" className="flex flex-col gap-4">
        <h2 id="history-heading" className="text-2xl font-bold tracking-tight">
          Recent changes
        </h2>
        <StaffHistory events={events} />
      </section>
    </div>
  );
}
