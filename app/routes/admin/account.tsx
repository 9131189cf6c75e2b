import { data, Form, redirect, useNavigation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminUser } from "#app/features/auth/admin-guard.server.ts";
import { readSessionToken } from "#app/features/auth/cookies.server.ts";
import { assertSameOrigin } from "#app/features/auth/guard.server.ts";
import { BackOfficeBar } from "#app/features/auth/ui/back-office-bar.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { ACCOUNT_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { clientAddressContext, getServices } from "#app/services.server.ts";
import type { Route } from "./+types/account";

// Issue 13: your own sessions (started, last seen, browser, masked address) and ending any of them,
// with or without JavaScript (plain forms posting an `intent`). An admin signs someone else out
// everywhere from the staff page.

export const meta: Route.MetaFunction = () => adminMeta("Your sessions");

const NOTICES = {
  ended: "That session has ended: the device using it is signed out.",
  "ended-others": "Every other session has ended. Only this one is still signed in.",
} as const;
type Notice = keyof typeof NOTICES;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const { auth } = await getServices(context);
  const sessions = await auth.sessions(user.id, readSessionToken(request));
  const notice = new URL(request.url).searchParams.get("notice");
  return {
    username: user.username,
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
  const { auth } = await getServices(context);
  const token = readSessionToken(request);
  switch (form.get("intent")) {
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
  const { username, sessions, notice } = loaderData;
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const pendingId = navigation.state === "submitting" ? navigation.formData?.get("id") : null;
  const others = sessions.filter((session) => !session.current).length;

  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <BackOfficeBar />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Your sessions</h1>
        <p className="mt-2 max-w-3xl leading-7 text-ink-muted">
          Every browser signed in as {username}. If you do not recognise one, or left one signed in on a
          shared computer, end it: that browser is signed out at once. Addresses are shown only up to their
          network.
        </p>
      </div>

      {actionData?.message ? <Banner tone="error">{actionData.message}</Banner> : null}
      {notice && !actionData ? <Banner tone="success">{notice}</Banner> : null}

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
