import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { DEFAULT_ERASURE_REASON } from "#app/features/people/people-constants.ts";
import { erasePersonIfHeld, exportPerson, NOTHING_HELD } from "#app/features/people/people-http.server.ts";
import { parsePersonEmail } from "#app/features/people/person-email.ts";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { PEOPLE_PATH } from "#app/lib/admin-paths.ts";
import { countOf } from "#app/lib/count-words.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/people";

// Issue 13, people's data rights: find everything held on one person by email, read it here or
// download it as JSON (subject access), and erase all of it in one confirmed step. Plain forms, so
// it works without JavaScript. Each lookup and erasure is in the access log, by count, never by email.

export const meta: Route.MetaFunction = () => adminMeta("People's data");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const url = new URL(request.url);
  const erased = url.searchParams.get("erased");
  const formerly = url.searchParams.get("formerly");
  const raw = url.searchParams.get("email");
  const count = (value: string | null) => (value !== null && /^\d{1,6}$/.test(value) ? Number(value) : null);
  const base = {
    query: raw ?? "",
    erasedCount: count(erased),
    formerlyCount: count(formerly) ?? 0,
  };
  if (raw === null || raw.trim() === "") return { ...base, searched: false as const };
  const email = parsePersonEmail(raw);
  if (!email) return { ...base, searched: true as const, invalid: true, person: null };
  const person = await exportPerson(context, user, email, "page");
  return {
    ...base,
    searched: true as const,
    invalid: false,
    person: person && {
      email: person.email,
      erasedBefore: person.erasedBefore ? formatDateTime(person.erasedBefore) : null,
      leads: person.leads.map((lead) => ({
        id: lead.id,
        type: lead.requestType,
        fullName: lead.fullName,
        company: lead.company,
        phone: lead.phone,
        status: lead.status,
        isSpam: lead.isSpam,
        submitted: formatDateTime(lead.createdAt),
      })),
      notes: person.notes.length,
      timeline: person.timeline.length,
      messages: person.messages.map((message) => ({
        leadId: message.leadId,
        status: message.status,
        created: formatDateTime(message.createdAt),
      })),
      formerly: person.formerly.map((lead) => ({
        leadId: lead.leadId,
        replaced: lead.replacedAt.map((at) => formatDateTime(at)),
        entries: lead.timeline.length,
      })),
      jsonHref: `/api/admin/people?${new URLSearchParams({ email, download: "1" })}`,
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
  const email = parsePersonEmail(form.get("email"));
  if (!email) return data({ message: "Give the person's email address." }, { status: 400 });
  if (form.get("confirm") !== "yes")
    return data(
      { message: "Tick the box to confirm that everything on this person is to be erased." },
      { status: 400 },
    );
  const erased = await erasePersonIfHeld(context, user, email, form.get("reason"));
  if (erased === null) return data({ message: NOTHING_HELD }, { status: 404 });
  const formerly = erased.formerly > 0 ? `&formerly=${erased.formerly}` : "";
  throw redirect(`${PEOPLE_PATH}?erased=${erased.leads}${formerly}`);
}

export default function People({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const erasing = navigation.state === "submitting" && navigation.formMethod === "POST";
  const person = loaderData.searched && !loaderData.invalid ? loaderData.person : null;

  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title={"People's data"}
        description={
          <>
            When someone asks what we hold on them, or asks us to forget them, find them here by the email
            they used. Every submission, note, timeline entry and queued message is found by that address, in
            any letter case.
          </>
        }
      />

      {loaderData.erasedCount !== null ? (
        <Banner tone="success">
          Erased: {loaderData.erasedCount} submission{loaderData.erasedCount === 1 ? "" : "s"} with their
          notes, history and messages
          {loaderData.formerlyCount > 0
            ? `, and the address from ${countOf(loaderData.formerlyCount, "other lead")} that carried it before`
            : ""}
          . Only a record that this address asked to be erased is kept.
        </Banner>
      ) : null}
      {actionData?.message ? <Banner tone="error">{actionData.message}</Banner> : null}

      <Form method="get" className="flex flex-wrap items-end gap-3">
        <label className="grid min-w-0 flex-1 basis-64 gap-1 text-sm font-semibold">
          Email address
          <input
            type="email"
            name="email"
            required
            maxLength={254}
            defaultValue={loaderData.query}
            autoComplete="off"
            className="h-10 rounded-md border border-line bg-white px-3 text-base font-normal"
          />
        </label>
        <Button type="submit">Find</Button>
      </Form>

      {loaderData.searched && loaderData.invalid ? (
        <Banner tone="error">That is not an email address.</Banner>
      ) : null}
      {loaderData.searched && !loaderData.invalid && !person ? (
        <p className="rounded-xl border border-line bg-white px-6 py-12 text-center text-ink-muted">
          Nothing is held on this email address.
        </p>
      ) : null}

      {person ? (
        <>
          {person.erasedBefore ? (
            <Banner tone="info">
              This address was erased on request on {person.erasedBefore}
              {person.leads.length > 0 ? "; what follows arrived after that, through the website." : "."}
            </Banner>
          ) : null}
          {person.leads.length > 0 ? (
            <SectionCard id="held-heading" title={`Held on ${person.email}`}>
              <p className="mt-2 text-ink-muted">
                {person.leads.length} submission{person.leads.length === 1 ? "" : "s"}, {person.notes} note
                {person.notes === 1 ? "" : "s"}, {person.timeline} timeline entr
                {person.timeline === 1 ? "y" : "ies"}, {person.messages.length} queued message
                {person.messages.length === 1 ? "" : "s"}.
              </p>
              <ul className="mt-4 divide-y divide-line">
                {person.leads.map((lead) => (
                  <li key={lead.id} className="grid gap-1 py-3">
                    <p className="flex flex-wrap items-baseline gap-x-2">
                      <Link
                        to={`/admin/leads/${lead.id}`}
                        className="font-semibold text-brand underline underline-offset-2"
                      >
                        {lead.fullName}
                      </Link>
                      <span>{lead.company}</span>
                      {lead.isSpam ? (
                        <span className="rounded-full bg-red-50 px-2 text-xs font-semibold text-danger">
                          Held as spam
                        </span>
                      ) : null}
                    </p>
                    <p className="text-sm text-ink-muted">
                      {lead.type === "investor" ? "Investor interest" : "Demo request"} · {lead.status} · sent{" "}
                      {lead.submitted} · {lead.phone}
                    </p>
                  </li>
                ))}
              </ul>
              <a
                href={person.jsonHref}
                className="mt-2 inline-block font-semibold text-brand underline underline-offset-2"
              >
                Download everything as JSON
              </a>
            </SectionCard>
          ) : null}
          {person.formerly.length > 0 ? (
            <SectionCard id="formerly-heading" title="Formerly on other leads">
              <p className="mt-2 leading-7 text-ink-muted">
                Staff changed the email of {person.formerly.length === 1 ? "this lead" : "these leads"} from
                this address to another, so {person.formerly.length === 1 ? "it belongs" : "they belong"} to
                the person of that address now. What is this person's is the fact that their address was there
                and the timeline entries naming it: the download holds those, the other address withheld, and
                an erasure removes their address from them.
              </p>
              <ul className="mt-4 divide-y divide-line">
                {person.formerly.map((lead) => (
                  <li key={lead.leadId} className="grid gap-1 py-3">
                    <Link
                      to={`/admin/leads/${lead.leadId}`}
                      className="font-semibold text-brand underline underline-offset-2"
                    >
                      Lead #{lead.leadId}
                    </Link>
                    <p className="text-sm text-ink-muted">
                      Its email until {lead.replaced.join(", and again until ")} · {lead.entries} timeline
                      entr
                      {lead.entries === 1 ? "y" : "ies"} name it
                    </p>
                  </li>
                ))}
              </ul>
              {person.leads.length === 0 ? (
                <a
                  href={person.jsonHref}
                  className="mt-2 inline-block font-semibold text-brand underline underline-offset-2"
                >
                  Download everything as JSON
                </a>
              ) : null}
            </SectionCard>
          ) : null}
          {person.leads.length > 0 || person.formerly.length > 0 ? (
            <section
              aria-labelledby="erase-heading"
              className="grid gap-4 rounded-xl border-2 border-danger bg-white p-6"
            >
              <h2 id="erase-heading" className="text-xl font-semibold text-danger">
                Erase this person
              </h2>
              <p className="leading-7">
                Removes every submission from {person.email}, with its notes, history, timeline, queued emails
                and webhook deliveries, and tells connected tools through the <code>lead.deleted</code>{" "}
                webhook.
                {person.formerly.length > 0
                  ? ` On ${countOf(person.formerly.length, "lead")} that carried the address before, the timeline` +
                    " keeps the correction with the address erased, and the lead stays."
                  : ""}{" "}
                It cannot be undone. Only a keyed fingerprint of the address is kept, so an integration cannot
                send them again; if they write through the website, that is new consent and is accepted.
              </p>
              <Form method="post" className="grid gap-4">
                <input type="hidden" name="email" value={person.email} />
                <label className="grid gap-1 text-sm font-semibold">
                  Reason (kept with the record)
                  <input
                    name="reason"
                    maxLength={200}
                    defaultValue={DEFAULT_ERASURE_REASON}
                    className="h-10 rounded-md border border-line bg-white px-3 text-base font-normal"
                  />
                </label>
                <label className="flex items-start gap-2 leading-6">
                  <input type="checkbox" name="confirm" value="yes" required className="mt-1 size-4" />
                  Yes, erase everything held on {person.email}
                </label>
                <Button
                  type="submit"
                  variant="danger"
                  className="justify-self-start"
                  aria-busy={erasing || undefined}
                >
                  {erasing
                    ? "Erasing..."
                    : person.leads.length === 0
                      ? "Erase this address"
                      : `Erase ${person.leads.length} submission${person.leads.length === 1 ? "" : "s"}`}
                </Button>
              </Form>
            </section>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
