import { data, redirect } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { bookFromInput } from "#app/features/meetings/booking-http.server.ts";
import { activeType, bookingDays, requestedZone } from "#app/features/meetings/booking-page.server.ts";
import {
  BOOKING_TYPES,
  bookingTitle,
  isBookingPageType,
  isMeetingTypeSlug,
} from "#app/features/meetings/booking-types.ts";
import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { BOOKING_TOKEN_FIELD } from "#app/features/meetings/ui/booking-offer-form.tsx";
import { TimeChoice, ZoneChoice } from "#app/features/meetings/ui/time-choice.tsx";
import { readLimitedText } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import type { Route } from "./+types/book";

// /book/demo and /book/investor (issue 34): anyone sent the link picks a time and books it with the
// contact fields the forms ask for. Rendered per request (the times change), a plain form: it works
// without JavaScript; the database decides who gets a time (ADR 039).

const FORM_BYTES = 8 * 1024;
const FIELDS = ["fullName", "email", "company", "phone"] as const;
const LABELS: Record<
  (typeof FIELDS)[number],
  { label: string; type: string; autoComplete: string; required: string }
> = {
  fullName: { label: "Full name", type: "text", autoComplete: "name", required: "Enter your full name" },
  email: {
    label: "Email address",
    type: "email",
    autoComplete: "email",
    required: "Enter a valid email address",
  },
  company: {
    label: "Company",
    type: "text",
    autoComplete: "organization",
    required: "Enter your company name",
  },
  phone: { label: "Phone number", type: "tel", autoComplete: "tel", required: "Enter a valid phone number" },
};

export const meta: Route.MetaFunction = ({ params, loaderData }) => {
  const slug = isMeetingTypeSlug(params.type) ? params.type : "demo";
  const title = loaderData?.title ?? (isBookingPageType(slug) ? BOOKING_TYPES[slug].title : "Book a meeting");
  return getMeta({
    title,
    path: `/book/${slug}`,
    description: "Choose a time that suits you and book it in one step; the invitation arrives by e-mail.",
  });
};

async function pageData(
  context: Route.LoaderArgs["context"],
  slug: string | undefined,
  url: URL,
  clientAddress: string,
) {
  if (!isMeetingTypeSlug(slug)) throw data(null, { status: 404 });
  const services = await meetingServices(context);
  const type = await activeType(services, slug);
  if (!type) throw data(null, { status: 404 });
  const zone = requestedZone(url);
  const { days, limited } = await bookingDays(services, type, zone, clientAddress);
  return {
    slug,
    title: bookingTitle(slug, type.name),
    typeName: type.name,
    durationMinutes: type.durationMinutes,
    zone,
    days,
    limited,
  };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const page = await pageData(context, params.type, new URL(request.url), context.get(clientAddressContext));
  return page.limited ? data(page, { status: 429, headers: page.limited.headers }) : page;
}

type Failure = { message: string; errors: Record<string, string>; values: Record<string, string> };

export async function action({ params, request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const page = await pageData(context, params.type, url, context.get(clientAddressContext));
  const text = await readLimitedText(request, FORM_BYTES);
  const form = new URLSearchParams(text ?? "");
  const values: Record<string, string> = {};
  for (const name of [...FIELDS, "start"]) values[name] = form.get(name) ?? "";
  const zone = requestedZone(new URL(`?tz=${encodeURIComponent(form.get("tz") ?? "")}`, url));
  // From a thank-you panel's picker: the request just sent holds the contact (its booking token).
  const leadToken = form.get(BOOKING_TOKEN_FIELD)?.slice(0, 100) || undefined;
  // What was left empty is said first, as the forms say it (nothing is stored either way).
  const missing: Record<string, string> = {};
  if (!leadToken) for (const name of FIELDS) if (!values[name]?.trim()) missing[name] = LABELS[name].required;
  if (!values.start) missing.start = "Choose a time.";
  if (Object.keys(missing).length > 0)
    return data(
      { message: Object.values(missing).join(". "), errors: missing, values, accepted: false },
      { status: 400 },
    );
  const services = await meetingServices(context);
  const answer = await bookFromInput(
    leadToken
      ? { type: page.slug, start: values.start, timeZone: zone, leadToken }
      : { type: page.slug, ...values, start: values.start || "missing", timeZone: zone },
    { headers: request.headers, host: url.host, protocol: url.protocol },
    context.get(clientAddressContext),
    services,
    "page",
  );
  if (answer.status === 201) {
    const { manageUrl } = answer.body as { manageUrl: string };
    return redirect(`${new URL(manageUrl).pathname}?booked=1`);
  }
  const body = answer.body as { message: string; errors?: Record<string, string> };
  const errors = { ...(body.errors ?? {}) };
  if (answer.status === 409) errors.start = body.message;
  return data(
    {
      message: answer.status === 202 ? body.message : body.message,
      errors,
      values,
      accepted: answer.status === 202,
    },
    { status: answer.status === 202 ? 200 : answer.status },
  );
}

export default function Book({ loaderData, actionData }: Route.ComponentProps) {
  const { slug, title, typeName, durationMinutes, zone, days, limited } = loaderData;
  const failure = actionData as (Failure & { accepted?: boolean }) | undefined;
  if (failure?.accepted)
    return (
      <>
        <PageHero
          title={title}
          breadcrumb={[{ label: "Home", to: "/" }, { label: title }]}
          intro={failure.message}
        />
      </>
    );
  const errors = failure?.errors ?? {};
  return (
    <>
      <PageHero
        title={title}
        breadcrumb={[{ label: "Home", to: "/" }, { label: title }]}
        intro={`A ${typeName.toLowerCase()} of ${durationMinutes} minutes, online, with a member of our team. Choose a time, tell us who you are, and the invitation arrives by e-mail.`}
      />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <h2 className="text-2xl font-bold text-brand">Choose a time</h2>
          <div className="mt-4">
            <ZoneChoice zone={zone} action={`/book/${slug}`} />
          </div>
        </div>
        <form
          method="post"
          noValidate={false}
          className="grid gap-8 lg:col-span-5 lg:grid-cols-5"
          id="booking"
        >
          <input type="hidden" name="tz" value={zone} />
          {failure && Object.keys(errors).length > 0 ? (
            <div role="alert" className="rounded-lg border-2 border-danger bg-white p-4 lg:col-span-5">
              <p className="font-semibold text-danger">{failure.message}</p>
            </div>
          ) : null}
          <div className="lg:col-span-3">
            {limited ? (
              <p
                role="alert"
                className="rounded-lg border-2 border-danger bg-white p-4 font-semibold text-danger"
              >
                {limited.message}
              </p>
            ) : (
              <TimeChoice days={days} chosen={failure?.values.start} error={errors.start} />
            )}
          </div>
          <fieldset className="grid content-start gap-5 self-start rounded-xl border border-line bg-white p-6 shadow-sm lg:sticky lg:top-6 lg:col-span-2">
            <legend className="px-1 text-lg font-semibold text-brand">Your details</legend>
            {FIELDS.map((name) => (
              <Field
                key={name}
                id={name}
                name={name}
                label={LABELS[name].label}
                required
                error={errors[name]}
              >
                {(control) => (
                  <Input
                    {...control}
                    type={LABELS[name].type}
                    autoComplete={LABELS[name].autoComplete}
                    defaultValue={failure?.values[name] ?? ""}
                    maxLength={name === "email" ? 254 : 100}
                  />
                )}
              </Field>
            ))}
            <button
              type="submit"
              className="mt-2 h-12 rounded-md bg-accent px-6 text-lg font-semibold text-ink hover:bg-[#e09c00] focus-visible:outline-3 focus-visible:outline-offset-2"
            >
              Book this time
            </button>
            <p className="text-sm text-ink-muted">
              We use these details to arrange the meeting and send you the invitation. See our{" "}
              <a href="/privacy-policy" className="underline">
                privacy policy
              </a>
              .
            </p>
          </fieldset>
        </form>
      </div>
    </>
  );
}
