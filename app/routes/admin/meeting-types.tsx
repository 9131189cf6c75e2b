import { data, redirect } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { listHostAccounts } from "#app/features/meetings/availability-admin.server.ts";
import {
  createMeetingType,
  listMeetingTypes,
  updateMeetingType,
} from "#app/features/meetings/meeting-types-admin.server.ts";
import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import {
  MeetingTypeForm,
  type MeetingTypeFormValues,
  meetingTypeFromForm,
} from "#app/features/meetings/ui/meeting-type-form.tsx";
import { readForm } from "#app/lib/http.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/meeting-types";

// Issue 34: the kinds of meeting prospects book, for an admin to rename, lengthen, give hosts and
// take off offer, or add. Plain forms; the server's schema decides (meeting-types-admin.server.ts).

export const meta: Route.MetaFunction = () => adminMeta("Meeting types");

const PATH = "/admin/meeting-types";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { database } = await meetingServices(context);
  const [types, hosts] = await Promise.all([listMeetingTypes(database.db), listHostAccounts(database.db)]);
  const notice = new URL(request.url).searchParams.get("saved");
  return { types, hosts, saved: types.find((type) => String(type.id) === notice)?.name ?? null };
}

type Failure = {
  intent: "create" | "update";
  id?: number;
  errors: Record<string, string>;
  values: MeetingTypeFormValues;
};

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  const intent = form.get("intent") === "create" ? "create" : "update";
  const body = meetingTypeFromForm(form, intent === "create");
  const { database } = await meetingServices(context);
  const id = Number(form.get("id"));
  const outcome =
    intent === "create"
      ? await createMeetingType(database.db, body)
      : await updateMeetingType(database.db, id, body);
  if (!("kind" in outcome)) return redirect(`${PATH}?saved=${outcome.id}`);
  if (outcome.kind === "not-found") throw data(null, { status: 404 });
  const values: MeetingTypeFormValues = {
    slug: typeof body.slug === "string" ? body.slug.slice(0, 40) : undefined,
    name: String(body.name ?? "").slice(0, 200),
    durationMinutes: Number(body.durationMinutes) || 30,
    hostChoice: body.hostChoice === "round_robin" ? "round_robin" : "owner_first",
    hostIds: Array.isArray(body.hostIds) ? (body.hostIds as number[]) : null,
    active: body.active === true,
  };
  return data<Failure>(
    { intent, id: intent === "update" ? id : undefined, errors: outcome.errors, values },
    { status: 400 },
  );
}

export default function MeetingTypes({ loaderData, actionData }: Route.ComponentProps) {
  const { types, hosts, saved } = loaderData;
  const failure = actionData as Failure | undefined;
  const failed = (intent: Failure["intent"], id?: number) =>
    failure && failure.intent === intent && failure.id === id ? failure : undefined;
  const created = failed("create");
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Meeting types"
        description="What prospects book after a request and on /book/<link name>: each type's name, length, hosts and how a host is chosen. A change applies to new bookings; meetings already booked keep their host, time and length."
      />
      {saved ? (
        <Banner tone="success">
          <strong className="font-semibold">“{saved}” saved.</strong> New bookings follow it from now on.
        </Banner>
      ) : null}
      {failure ? <Banner tone="error">Nothing was saved: correct the fields marked below.</Banner> : null}
      {types.map((type) => {
        const own = failed("update", type.id);
        return (
          <section
            key={type.id}
            aria-labelledby={`type-${type.id}-heading`}
            className="rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
          >
            <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
              <h2 id={`type-${type.id}-heading`} className="text-xl font-semibold">
                {type.name}
              </h2>
              <p className="text-sm text-ink-muted">
                <a
                  className="font-semibold text-brand underline underline-offset-2"
                  href={`/book/${type.slug}`}
                >
                  /book/{type.slug}
                </a>
                {type.active ? "" : " · not offered"}
              </p>
            </div>
            <MeetingTypeForm
              key={`${type.id}-${JSON.stringify(type)}`}
              idPrefix={`type-${type.id}`}
              typeId={type.id}
              values={own?.values ?? type}
              errors={own?.errors ?? {}}
              hosts={hosts}
              submitLabel={`Save ${type.name}`}
            />
          </section>
        );
      })}
      <section
        aria-labelledby="new-type-heading"
        className="rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
      >
        <h2 id="new-type-heading" className="mb-4 text-xl font-semibold">
          Add a meeting type
        </h2>
        <MeetingTypeForm
          idPrefix="new-type"
          values={
            created?.values ?? {
              slug: "",
              name: "",
              durationMinutes: 30,
              hostChoice: "round_robin",
              hostIds: null,
              active: true,
            }
          }
          errors={created?.errors ?? {}}
          hosts={hosts}
          submitLabel="Add meeting type"
        />
      </section>
    </div>
  );
}
