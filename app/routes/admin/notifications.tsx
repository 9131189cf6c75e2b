import { data, Link, redirect } from "react-router";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { safeAdminNext } from "#app/features/auth/safe-admin-next.ts";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import {
  findNotification,
  listNotifications,
  markAllRead,
  markRead,
} from "#app/features/notifications/notification-store.server.ts";
import { notificationsServices } from "#app/features/notifications/notifications-context.server.ts";
import {
  MarkAllRead,
  NOTIFICATIONS_PATH,
  NotificationItems,
} from "#app/features/notifications/ui/notification-items.tsx";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/notifications";

// Issue 35: everything the bell lists, for the signed-in person, unread first, PAGE_SIZE a page.
// Opening one marks it read and goes to its page; "Mark read" and "Mark all read" stay here. Plain
// forms: the same with or without JavaScript (the bell's list posts here too).

const PAGE_SIZE = 25;

export const meta: Route.MetaFunction = () => adminMeta("Notifications");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const { database, leadDetails } = await notificationsServices(context);
  const pageParam = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  const list = await listNotifications(database.db, user, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    details: leadDetails,
  });
  return {
    page,
    pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
    unread: list.unread,
    items: list.items.map(({ createdAt, link: _link, ...item }) => ({
      ...item,
      when: formatDateTime(createdAt),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
  const { database } = await notificationsServices(context);
  const id = Number(form.get("id"));
  switch (form.get("intent")) {
    case "open": {
      const found = Number.isSafeInteger(id) ? await findNotification(database.db, user.id, id) : undefined;
      if (!found) return data({ message: "That notification is not there any more." }, { status: 404 });
      await markRead(database.db, user.id, [id]);
      throw redirect(safeAdminNext(found.link));
    }
    case "read": {
      if (Number.isSafeInteger(id)) await markRead(database.db, user.id, [id]);
      throw redirect(safeAdminNext(form.get("next") ?? NOTIFICATIONS_PATH));
    }
    case "read-all": {
      await markAllRead(database.db, user.id);
      throw redirect(safeAdminNext(form.get("next") ?? NOTIFICATIONS_PATH));
    }
    default:
      return data({ message: "Unknown action." }, { status: 400 });
  }
}

export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { items, unread, page, pages } = loaderData;
  const here = page > 1 ? `${NOTIFICATIONS_PATH}?page=${page}` : NOTIFICATIONS_PATH;
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Notifications"
        description={
          unread > 0
            ? `${unread.toLocaleString("en-GB")} unread. Leads assigned to you, your tasks due, meetings booked with you and the watches' alerts.`
            : "Leads assigned to you, your tasks due, meetings booked with you and the watches' alerts."
        }
        actions={unread > 0 ? <MarkAllRead next={here} /> : null}
      />
      {actionData?.message ? (
        <p role="alert" className="rounded-lg border border-danger bg-white px-4 py-3 text-danger">
          {actionData.message}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white px-6 py-10 text-center text-ink-muted shadow-sm">
          Nothing yet. When a lead is assigned to you, a meeting is booked with you or a watch raises an
          alert, it shows here.
        </p>
      ) : (
        <section
          aria-label="Your notifications"
          className="overflow-hidden rounded-xl border border-line bg-white shadow-sm"
        >
          <NotificationItems items={items} next={here} markEach />
        </section>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
          {page > 1 ? (
            <Link
              className="font-semibold text-brand underline"
              to={`${NOTIFICATIONS_PATH}?page=${page - 1}`}
            >
              Newer
            </Link>
          ) : (
            <span />
          )}
          <span className="text-ink-muted">
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <Link
              className="font-semibold text-brand underline"
              to={`${NOTIFICATIONS_PATH}?page=${page + 1}`}
            >
              Older
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}
