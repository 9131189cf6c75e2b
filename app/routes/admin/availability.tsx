import { data, Form, redirect } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import {
  listHostAccounts,
  loadAvailability,
  manageableHost,
  saveAvailability,
} from "#app/features/meetings/availability-admin.server.ts";
import { formErrorsOf, formValuesOf, profileFromForm } from "#app/features/meetings/availability-form.ts";
import { calendarProblem } from "#app/features/meetings/calendar-problem.ts";
import { currentFeedPath, resetFeed } from "#app/features/meetings/meeting-feed.server.ts";
import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { AvailabilityForm } from "#app/features/meetings/ui/availability-form.tsx";
import {
  type CalendarFormResult,
  CalendarPanel,
  FeedPanel,
} from "#app/features/meetings/ui/calendar-panel.tsx";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { can } from "#app/lib/permissions.ts";
import type { StaffUser } from "#app/lib/staff-guard.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/availability";

// Issue 34: when prospects can book a host. Your own hours, or (an admin) anyone's who hosts
// meetings. A plain form: it works without JavaScript; the shared schema checks it on the server.

export const meta: Route.MetaFunction = () => adminMeta("Availability");

const PATH = "/admin/availability";

function requestedUser(url: URL, fallback: number): number {
  const id = Number(url.searchParams.get("user"));
  return Number.isSafeInteger(id) && id > 0 ? id : fallback;
}

const CALENDAR_NOTICES = {
  connected:
    "Calendar connected. Busy times are read from it from now on, and booked meetings written into it.",
  refreshed: "Calendar read just now.",
  "refresh-failed": "The calendar could not be read: see the warning below.",
  disconnected: "Calendar disconnected. Its busy times are forgotten; meetings already written stay in it.",
  "feed-reset": "The feed link is new: the old one no longer works. Subscribe again with this one.",
} as const;
type CalendarNotice = keyof typeof CALENDAR_NOTICES;

const pageOf = (user: StaffUser, userId: number) => (userId === user.id ? PATH : `${PATH}?user=${userId}`);
const withNotice = (path: string, notice: CalendarNotice) =>
  `${path}${path.includes("?") ? "&" : "?"}calendar=${notice}#${notice === "feed-reset" ? "feed" : "calendar"}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const url = new URL(request.url);
  const services = await meetingServices(context);
  const { database } = services;
  const manager = can(user.role, "meetings.manage");
  const availability = await loadAvailability(database.db, user, requestedUser(url, user.id));
  if ("kind" in availability) {
    if (availability.kind === "forbidden") throw redirect(PATH);
    throw data(null, { status: 404 });
  }
  const hostId = availability.userId;
  const [status, feedPath] = await Promise.all([
    services.calendars ? services.calendars.status(hostId) : null,
    currentFeedPath(database.db, services.secret, hostId),
  ]);
  const origin = (services.publicUrl ?? url.origin).replace(/\/+$/, "");
  const own = hostId === user.id;
  const notice = url.searchParams.get("calendar");
  return {
    availability: {
      ...availability,
      updated: availability.updatedAt ? formatDateTime(availability.updatedAt) : null,
    },
    values: formValuesOf(availability.profile),
    own,
    hosts: manager ? await listHostAccounts(database.db) : [],
    saved: url.searchParams.get("saved") === "1",
    timeZones: Intl.supportedValuesOf("timeZone"),
    calendarsAvailable: Boolean(services.calendars),
    calendar: status
      ? {
          url: status.url,
          username: status.username,
          connected: formatDateTime(status.connectedAt),
          refreshed: status.refreshedAt ? formatDateTime(status.refreshedAt) : null,
          problem: calendarProblem(status, own, services.now()),
        }
      : null,
    feedUrl: `${origin}${feedPath}`,
    calendarNotice: notice && notice in CALENDAR_NOTICES ? CALENDAR_NOTICES[notice as CalendarNotice] : null,
  };
}

/** The calendar and feed intents: for the page's person, by the availability's rule. */
async function calendarAction(
  context: Route.ActionArgs["context"],
  user: StaffUser,
  intent: string,
  form: URLSearchParams,
) {
  const services = await meetingServices(context);
  const host = await manageableHost(services.database.db, user, Number(form.get("userId")));
  if ("kind" in host) throw data(null, { status: host.kind === "forbidden" ? 403 : 404 });
  const page = pageOf(user, host.id);
  if (intent === "feed-reset") {
    await resetFeed(services.database.db, services.secret, host.id, services.now());
    throw redirect(withNotice(page, "feed-reset"));
  }
  const { calendars } = services;
  if (!calendars) throw data(null, { status: 404 });
  switch (intent) {
    case "calendar-connect": {
      const values = {
        url: (form.get("url") ?? "").slice(0, 2000),
        username: (form.get("username") ?? "").slice(0, 200),
      };
      const outcome = await calendars.connect(host.id, {
        url: form.get("url") ?? "",
        username: form.get("username") ?? "",
        password: form.get("password") ?? "",
      });
      if (outcome.ok) throw redirect(withNotice(page, "connected"));
      return data(
        {
          calendar: { message: outcome.message, errors: outcome.errors, values } satisfies CalendarFormResult,
        },
        { status: 400 },
      );
    }
    case "calendar-refresh": {
      const outcome = await calendars.refresh(host.id);
      throw redirect(withNotice(page, outcome === "failed" ? "refresh-failed" : "refreshed"));
    }
    case "calendar-disconnect": {
      await calendars.disconnect(host.id);
      throw redirect(withNotice(page, "disconnected"));
    }
    default:
      throw data(null, { status: 400 });
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent) return calendarAction(context, user, intent, form);
  const userId = Number(form.get("userId"));
  const { database } = await meetingServices(context);
  const outcome = await saveAvailability(database.db, user, userId, profileFromForm(form));
  if (!("kind" in outcome)) {
    const query = userId === user.id ? "?saved=1" : `?user=${userId}&saved=1`;
    return redirect(`${PATH}${query}`);
  }
  if (outcome.kind !== "invalid") throw data(null, { status: outcome.kind === "forbidden" ? 403 : 404 });
  return data(
    {
      errors: formErrorsOf(outcome.errors),
      values: Object.fromEntries([...form.entries()].map(([name, value]) => [name, value.slice(0, 2000)])),
    },
    { status: 400 },
  );
}

export default function Availability({ loaderData, actionData }: Route.ComponentProps) {
  const {
    availability,
    own,
    hosts,
    saved,
    timeZones,
    calendar,
    calendarsAvailable,
    feedUrl,
    calendarNotice,
  } = loaderData;
  const calendarResult = actionData && "calendar" in actionData ? actionData.calendar : undefined;
  const formResult = actionData && "errors" in actionData ? actionData : undefined;
  const values = formResult?.values ?? loaderData.values;
  const errors = formResult?.errors ?? {};
  const whose = own ? "your" : `${availability.username}'s`;
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Availability"
        description={
          <>
            When prospects can book {own ? "you" : availability.username} for a product demo or an investor
            call. Visitors see these times in their own time zone. A change applies to new bookings only:
            meetings already booked stay where they are.
          </>
        }
      />
      {hosts.length > 0 ? (
        <Form method="get" className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <label htmlFor="availability-user" className="font-semibold">
              Whose availability
            </label>
            <NativeSelect id="availability-user" name="user" defaultValue={String(availability.userId)}>
              {hosts.map((host) => (
                <option key={host.id} value={host.id}>
                  {host.username}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" variant="outline">
            Open
          </Button>
        </Form>
      ) : null}
      {saved ? (
        <Banner tone="success">
          <strong className="font-semibold">Availability saved.</strong> New bookings follow {whose} hours
          from now on.
        </Banner>
      ) : null}
      {calendarNotice && !actionData ? (
        <Banner tone={calendarNotice.startsWith("The calendar could not") ? "error" : "success"}>
          {calendarNotice}
        </Banner>
      ) : null}
      {formResult ? (
        <Banner tone="error">Nothing was saved: correct the fields marked below and save again.</Banner>
      ) : null}
      {availability.isDefault && !formResult ? (
        <Banner tone="info">
          {own ? "You are" : `${availability.username} is`} on the default hours: Monday to Friday, 09:00 to
          17:00 London time. Save to make them {own ? "your" : "their"} own.
        </Banner>
      ) : null}
      <AvailabilityForm
        key={`${availability.userId}-${availability.updated ?? "default"}`}
        userId={availability.userId}
        values={values}
        errors={errors}
        timeZones={timeZones}
        updated={availability.updated}
      />
      <CalendarPanel
        userId={availability.userId}
        own={own}
        username={availability.username}
        available={calendarsAvailable}
        calendar={calendar}
        result={calendarResult}
      />
      <FeedPanel userId={availability.userId} own={own} feedUrl={feedUrl} />
    </div>
  );
}
