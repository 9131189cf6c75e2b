import { isRouteErrorResponse, Link, Outlet, useLocation, useRouteLoaderData } from "react-router";
import { AppShell, type ShellCounts } from "#app/components/back-office/app-shell.tsx";
import { sidebarCollapsed } from "#app/components/back-office/sidebar-state.ts";
import { useConfirmedAdminFlags } from "#app/features/auth/admin-flags.ts";
import { authServices } from "#app/features/auth/auth-context.server.ts";
import { CodeFailureNotice, type CodeFailureNoticeView } from "#app/features/auth/ui/code-failure-notice.tsx";
import { LogoutButton } from "#app/features/auth/ui/logout-button.tsx";
import { leadsServices } from "#app/features/leads/leads-context.server.ts";
import { GlobalSearch } from "#app/features/leads/search/ui/global-search.tsx";
import { listNotifications } from "#app/features/notifications/notification-store.server.ts";
import { notificationsServices } from "#app/features/notifications/notifications-context.server.ts";
import { NotificationBell } from "#app/features/notifications/ui/notification-bell.tsx";
import type { BellView } from "#app/features/notifications/ui/notification-items.tsx";
import { adminUser, guardAdminRequest } from "#app/lib/admin-guard.server.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { can, PERMISSIONS, ROLE_LABELS } from "#app/lib/permissions.ts";
import type { Route } from "./+types/guarded-layout";

// SPEC section 2, route protection, decided by the server: every page below (documents, data
// requests and form posts alike) needs a session whose role may open it (permissions.ts, issue 23).
// Signed out → /admin/login?next=…, signed in without that right → /. The browser's localStorage is
// never consulted.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => {
    await guardAdminRequest(request, context);
  },
];

/**
 * The staff member the guard let in (for SPEC section 4's localStorage hints, see
 * useConfirmedAdminFlags, the shell, and the pages below to show what their role allows: `can`), and
 * the counts beside Leads: from the dashboard's summary, cached a few seconds, so the shell costs a
 * page no query of its own under steady use.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { id, username, role, isAdmin } = adminUser(context);
  const user = {
    id,
    username,
    role,
    isAdmin,
    roleLabel: role ? ROLE_LABELS[role] : "No role",
    permissions: PERMISSIONS.filter((permission) => can(role, permission)),
  };
  let counts: ShellCounts = null;
  if (can(role, "leads.read")) {
    try {
      const { leadSummary } = await leadsServices(context);
      const summary = await leadSummary.get();
      counts = { newLeads: summary.listedByStatus.new, spam: summary.heldSpam };
    } catch {
      // The page itself says when the database is away; the nav works without its counts.
    }
  }
  // Issue 32 point 3: days of wrong codes the owner has not dismissed (one indexed read, by user).
  let codeNotices: CodeFailureNoticeView[] = [];
  try {
    const { auth } = await authServices(context);
    codeNotices = await auth.codeFailureNotices(id);
  } catch {
    // As the counts: the page itself says when the database is away.
  }
  // Issue 35: the bell's count and newest few (two indexed reads by person).
  let bell: BellView = { unread: 0, items: [] };
  try {
    const { database, leadDetails } = await notificationsServices(context);
    // A lead's name and a task's words only for a role that reads leads (the store asks the role).
    const list = await listNotifications(
      database.db,
      { id, role },
      { limit: BELL_ITEMS, details: leadDetails },
    );
    bell = {
      unread: list.unread,
      items: list.items.map(({ createdAt, link: _link, ...item }) => ({
        ...item,
        when: formatDateTime(createdAt),
      })),
    };
  } catch {
    // As the counts: the page itself says when the database is away.
  }
  return { user, counts, codeNotices, bell, collapsed: sidebarCollapsed(request.headers.get("cookie")) };
}

/** How many notifications the bell lists; the rest are on /admin/notifications. */
const BELL_ITEMS = 8;

/** The search finds people by name and email: only for the roles that may read the leads. */
function searchFor(user: { permissions: readonly string[] }) {
  return user.permissions.includes("leads.read") ? <GlobalSearch /> : null;
}

export default function GuardedLayout({ loaderData }: Route.ComponentProps) {
  useConfirmedAdminFlags(loaderData.user);
  return (
    <AppShell
      user={loaderData.user}
      counts={loaderData.counts}
      search={searchFor(loaderData.user)}
      logout={<LogoutButton />}
      bell={(placement) => <NotificationBell view={loaderData.bell} placement={placement} />}
      collapsed={loaderData.collapsed}
    >
      <CodeFailureNotice notices={loaderData.codeNotices} />
      <Outlet />
    </AppShell>
  );
}

/** A page below failed: said in words, inside the shell when the shell's own data arrived. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData<typeof loader>("routes/admin/guarded-layout");
  const { pathname, search } = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  const [title, text] =
    status === 404
      ? [
          "Page not found",
          "There is nothing at this address in the back office. It may have been moved or erased.",
        ]
      : status === 503
        ? [
            "The back office is unavailable",
            "It cannot reach its database just now. Your work is safe; please try again in a minute.",
          ]
        : [
            "Something went wrong",
            "This page could not be shown. Please try again in a moment; if it keeps happening, tell whoever runs the site.",
          ];
  const message = (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 leading-7 text-ink-muted">{text}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-4">
        {status !== 404 ? (
          <a href={pathname + search} className="font-semibold text-brand underline underline-offset-2">
            Try again
          </a>
        ) : null}
        <Link to={DASHBOARD_PATH} className="font-semibold text-brand underline underline-offset-2">
          Go to the leads
        </Link>
      </div>
    </div>
  );
  if (!shell) return <main id="main">{message}</main>;
  return (
    <AppShell
      user={shell.user}
      counts={shell.counts}
      search={searchFor(shell.user)}
      logout={<LogoutButton />}
      bell={(placement) => <NotificationBell view={shell.bell} placement={placement} />}
      collapsed={shell.collapsed}
    >
      {message}
    </AppShell>
  );
}
