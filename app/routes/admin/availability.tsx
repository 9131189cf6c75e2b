import { data, Form, redirect } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import {
  listHostAccounts,
  loadAvailability,
  saveAvailability,
} from "#app/features/meetings/availability-admin.server.ts";
import { formErrorsOf, formValuesOf, profileFromForm } from "#app/features/meetings/availability-form.ts";
import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { AvailabilityForm } from "#app/features/meetings/ui/availability-form.tsx";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { can } from "#app/lib/permissions.ts";
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

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const url = new URL(request.url);
  const { database } = await meetingServices(context);
  const manager = can(user.role, "meetings.manage");
  const availability = await loadAvailability(database.db, user, requestedUser(url, user.id));
  if ("kind" in availability) {
    if (availability.kind === "forbidden") throw redirect(PATH);
    throw data(null, { status: 404 });
  }
  return {
    availability: {
      ...availability,
      updated: availability.updatedAt ? formatDateTime(availability.updatedAt) : null,
    },
    values: formValuesOf(availability.profile),
    own: availability.userId === user.id,
    hosts: manager ? await listHostAccounts(database.db) : [],
    saved: url.searchParams.get("saved") === "1",
    timeZones: Intl.supportedValuesOf("timeZone"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
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
  const { availability, own, hosts, saved, timeZones } = loaderData;
  const values = actionData?.values ?? loaderData.values;
  const errors = actionData?.errors ?? {};
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
      {actionData ? (
        <Banner tone="error">Nothing was saved: correct the fields marked below and save again.</Banner>
      ) : null}
      {availability.isDefault && !actionData ? (
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
    </div>
  );
}
