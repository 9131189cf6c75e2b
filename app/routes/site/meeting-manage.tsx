import { data, isRouteErrorResponse, Link, redirect } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import {
  answerCancel,
  meetingOfManageToken,
  meetingTypeOf,
  rescheduleTo,
} from "#app/features/meetings/booking-http.server.ts";
import { bookingDays, requestedZone } from "#app/features/meetings/booking-page.server.ts";
import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { dayLabel, timeLabel } from "#app/features/meetings/slot-labels.ts";
import { TimeChoice } from "#app/features/meetings/ui/time-choice.tsx";
import { readLimitedText } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import type { Route } from "./+types/meeting-manage";

// The manage link of a booking (issue 34): the meeting, and reschedule or cancel without signing in.
// Works without JavaScript (plain forms). Never indexed; the link is the only key.

const PRIVATE_HEADERS = { "X-Robots-Tag": "noindex, nofollow" };
export const headers = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = ({ params }) =>
  getMeta({
    title: "Your meeting",
    path: `/meetings/manage/${params.token}`,
    description: "Reschedule or cancel your meeting with Clausebridge.",
    noIndex: true,
  });

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const services = await meetingServices(context);
  const found = await meetingOfManageToken(params.token, services);
  const url = new URL(request.url);
  // Just cancelled here: say so, rather than that the link no longer works.
  if (!found.ok && found.answer.status === 410 && url.searchParams.get("cancelled") === "1")
    return { cancelled: true as const };
  if (!found.ok)
    throw data(
      { message: (found.answer.body as { message: string }).message },
      { status: found.answer.status },
    );
  const { meeting } = found;
  const zone = url.searchParams.has("tz") ? requestedZone(url) : meeting.attendee.timeZone;
  return {
    cancelled: false as const,
    booked: url.searchParams.get("booked") === "1",
    moved: url.searchParams.get("moved") === "1",
    typeName: meeting.typeName,
    hostName: meeting.hostName,
    email: meeting.attendee.email,
    when: `${dayLabel(meeting.start, zone)}, ${timeLabel(meeting.start, zone)}–${timeLabel(meeting.end, zone)}`,
    zone,
    ...(await bookingDays(
      services,
      await meetingTypeOf(services, meeting),
      zone,
      context.get(clientAddressContext),
    )),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const services = await meetingServices(context);
  const url = new URL(request.url);
  const head = { headers: request.headers, host: url.host, protocol: url.protocol };
  const form = new URLSearchParams((await readLimitedText(request, 4096)) ?? "");
  if (form.get("intent") === "cancel") {
    const answer = await answerCancel(params.token, head, services);
    if (answer.status !== 200)
      throw data({ message: (answer.body as { message: string }).message }, { status: answer.status });
    return redirect(`/meetings/manage/${params.token}?cancelled=1`);
  }
  const answer = await rescheduleTo(params.token, form.get("start") ?? "", head, services);
  if (answer.status === 200) return redirect(`/meetings/manage/${params.token}?moved=1`);
  if (answer.status === 404 || answer.status === 410)
    throw data({ message: (answer.body as { message: string }).message }, { status: answer.status });
  const body = answer.body as { message: string; errors?: Record<string, string> };
  return data({ message: body.errors?.start ?? body.message }, { status: answer.status });
}

const notice = "rounded-lg border-2 p-4 leading-7";

export default function MeetingManage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.cancelled)
    return (
      <PageHero
        title="Meeting cancelled"
        breadcrumb={[{ label: "Home", to: "/" }, { label: "Your meeting" }]}
        intro="Your meeting is cancelled. We have sent you an e-mail to confirm it."
      />
    );
  const { booked, moved, typeName, hostName, email, when, zone, days, limited } = loaderData;
  return (
    <>
      <PageHero
        title={`Your ${typeName.toLowerCase()}`}
        breadcrumb={[{ label: "Home", to: "/" }, { label: "Your meeting" }]}
        intro={`${when} (${zone}), with ${hostName}.`}
      />
      <div className="mx-auto grid max-w-4xl gap-10 px-4 py-12 sm:px-6">
        {booked || moved ? (
          <div role="status" className={`${notice} border-success bg-white`}>
            <p className="font-semibold">{booked ? "Your meeting is booked." : "Your meeting has moved."}</p>
            <p>The invitation is on its way to {email}. Keep this page's address to reschedule or cancel.</p>
          </div>
        ) : null}
        {actionData ? (
          <div role="alert" className={`${notice} border-danger bg-white`}>
            <p className="font-semibold text-danger">{actionData.message}</p>
          </div>
        ) : null}
        <section aria-labelledby="reschedule-heading">
          <h2 id="reschedule-heading" className="text-2xl font-bold text-brand">
            Choose another time
          </h2>
          <form method="post" className="mt-6 grid gap-6">
            <input type="hidden" name="intent" value="reschedule" />
            {limited ? (
              <p role="alert" className="font-semibold text-danger">
                {limited.message}
              </p>
            ) : (
              <TimeChoice days={days} />
            )}
            <div>
              <button
                type="submit"
                className="h-11 rounded-md bg-brand px-5 font-semibold text-white hover:bg-brand-strong focus-visible:outline-3 focus-visible:outline-offset-2"
              >
                Move my meeting
              </button>
            </div>
          </form>
        </section>
        <section aria-labelledby="cancel-heading" className="border-t border-line pt-8">
          <h2 id="cancel-heading" className="text-2xl font-bold text-brand">
            Cancel
          </h2>
          <form method="post" className="mt-4">
            <input type="hidden" name="intent" value="cancel" />
            <button
              type="submit"
              className="h-11 rounded-md border-2 border-danger bg-white px-5 font-semibold text-danger hover:bg-red-50 focus-visible:outline-3 focus-visible:outline-offset-2"
            >
              Cancel this meeting
            </button>
          </form>
        </section>
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message =
    isRouteErrorResponse(error) && typeof (error.data as { message?: unknown } | null)?.message === "string"
      ? (error.data as { message: string }).message
      : "This link is not valid. Use the link in your confirmation e-mail.";
  return (
    <PageHero
      title="Your meeting"
      breadcrumb={[{ label: "Home", to: "/" }, { label: "Your meeting" }]}
      intro={
        <>
          {message}{" "}
          <Link to="/book/demo" className="font-semibold underline">
            Book a new time
          </Link>
          .
        </>
      }
    />
  );
}
