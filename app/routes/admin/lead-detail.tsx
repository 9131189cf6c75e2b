import type { ReactNode } from "react";
import { data, Form, isRouteErrorResponse, Link, redirect, useLocation, useNavigation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { adminUser } from "#app/features/auth/admin-guard.server.ts";
import { assertSameOrigin } from "#app/features/auth/guard.server.ts";
import { BackOfficeBar } from "#app/features/auth/ui/back-office-bar.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { assignableStaff, UnknownOwnerError } from "#app/features/leads/lead-admin.server.ts";
import { leadDetail } from "#app/features/leads/lead-admin-http.server.ts";
import { NOTE_MAX_LENGTH } from "#app/features/leads/lead-constants.ts";
import {
  changeStatusFromForm,
  deleteFromForm,
  type Notice,
  parseLeadId,
  readNotice,
  withNotice,
} from "#app/features/leads/lead-forms.server.ts";
import { addNote, NoteBodySchema } from "#app/features/leads/lead-notes.server.ts";
import type { TimelineEntry } from "#app/features/leads/lead-timeline.server.ts";
import {
  CONFIRM_DELETE_PARAM,
  DeleteLeadButton,
  DeleteLeadConfirmation,
} from "#app/features/leads/ui/delete-lead.tsx";
import { ReturningBadge, SpamLevelBadge, TypeBadge } from "#app/features/leads/ui/lead-badges.tsx";
import { LeadStatusControl } from "#app/features/leads/ui/lead-status-control.tsx";
import { NoticeBanner } from "#app/features/leads/ui/notice-banner.tsx";
import { StatusBadge } from "#app/features/leads/ui/status-badge.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { getServices } from "#app/services.server.ts";
import type { Route } from "./+types/lead-detail";

// One lead, as sales work it: who the person is (and what else they sent), where it is (status,
// owner, spam verdict), notes, and a timeline of everything that happened to it, each with who and
// when. Every control is a form that works without JavaScript.

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData ? `Lead: ${loaderData.lead.fullName}` : "Lead not found");

const notFound = () => data("Lead not found", { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = parseLeadId(params.id);
  if (id === null) throw notFound();
  const { database } = await getServices(context);
  const [detail, staff] = await Promise.all([leadDetail(database.db, id), assignableStaff(database.db)]);
  if (!detail) throw notFound();
  const url = new URL(request.url);
  const { history: _history, notes: _notes, timeline, otherSubmissions, ...lead } = detail;
  return {
    lead: { ...lead, created: formatDateTime(lead.createdAt), updated: formatDateTime(lead.updatedAt) },
    owner: staff.find((member) => member.id === lead.ownerId) ?? null,
    staff,
    timeline: timeline.map((entry) => ({ ...entry, when: formatDateTime(entry.at) })),
    otherSubmissions: otherSubmissions.map((other) => ({
      ...other,
      created: formatDateTime(other.createdAt),
    })),
    confirmDelete: url.searchParams.has(CONFIRM_DELETE_PARAM),
    notice: readNotice(url),
  };
}

/**
 * Without JavaScript (and with it, through React Router's forms): `intent` is `status`, `owner`
 * (`ownerId`, empty for unassigned), `spam` (`value` true or false), `note` (`body`) or `delete`.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const id = parseLeadId(params.id);
  const form = await readForm(request);
  const { database, leadAdmin } = await getServices(context);
  const here = new URL(request.url).pathname;
  const done = (notice: Notice) => redirect(withNotice(here, notice));
  const missing = () => data("Lead not found", { status: 404 });
  switch (form.get("intent")) {
    case "delete": {
      const outcome = await deleteFromForm(leadAdmin, id);
      if (!outcome.ok) throw data(outcome.message, { status: outcome.status });
      throw redirect(withNotice(DASHBOARD_PATH, "deleted"));
    }
    case "status": {
      const outcome = await changeStatusFromForm(leadAdmin, id, form, user);
      if (!outcome.ok) {
        if (outcome.status === 404) throw missing();
        return data({ message: outcome.message, field: "status" }, { status: outcome.status });
      }
      throw done("updated");
    }
    case "owner": {
      const raw = form.get("ownerId") ?? "";
      const ownerId = raw === "" ? null : Number(raw);
      if (ownerId !== null && (!Number.isSafeInteger(ownerId) || ownerId < 1))
        return data({ message: "Choose a staff member or Unassigned.", field: "owner" }, { status: 400 });
      try {
        if (id === null || !(await leadAdmin.setOwner(id, ownerId, user))) throw missing();
      } catch (error) {
        if (error instanceof UnknownOwnerError)
          return data({ message: error.message, field: "owner" }, { status: 400 });
        throw error;
      }
      throw done("owner");
    }
    case "spam": {
      const spam = form.get("value") === "true";
      if (id === null || !(await leadAdmin.setSpam(id, spam, user))) throw missing();
      throw done(spam ? "spam" : "not-spam");
    }
    case "note": {
      const parsed = NoteBodySchema.safeParse(form.get("body") ?? "");
      if (!parsed.success)
        return data(
          {
            message: parsed.error.issues[0]?.message ?? "Invalid note.",
            field: "note",
            body: form.get("body") ?? "",
          },
          { status: 400 },
        );
      if (id === null || !(await addNote(database.db, id, parsed.data, user))) throw missing();
      throw done("note");
    }
    default:
      return data({ message: "Unknown action." }, { status: 400 });
  }
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-t border-line py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="font-semibold">{label}</dt>
      <dd className="break-words sm:col-span-2">{children}</dd>
    </div>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-line bg-white p-6 shadow-sm">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const none = <span className="text-ink-muted">—</span>;

const INVESTOR_LABELS = { angel: "Angel", vc: "VC", introducer: "Introducer", other: "Other" } as const;

function sourceText(source: string, sourcePage: string | null): string {
  if (source === "form") return `the website form${sourcePage ? ` on ${sourcePage}` : ""}`;
  if (source === "api") return "the API";
  return `the API key “${source}”`;
}

/** One line of the timeline, in words. */
function describe(entry: TimelineEntry): ReactNode {
  const who = (actor: string | null) => <strong className="font-semibold">{actor ?? "The product"}</strong>;
  switch (entry.kind) {
    case "submitted":
      return <>Submitted through {sourceText(entry.source, entry.sourcePage)}</>;
    case "status":
      return (
        <span className="inline-flex flex-wrap items-center gap-1.5">
          {who(entry.actor)} changed the status <StatusBadge status={entry.from} />
          <span aria-hidden="true">→</span>
          <span className="sr-only">to</span>
          <StatusBadge status={entry.to} />
        </span>
      );
    case "note":
      return (
        <>
          {who(entry.actor)} added a note
          <span className="mt-1 block rounded-md bg-surface-muted px-3 py-2 whitespace-pre-wrap">
            {entry.body}
          </span>
        </>
      );
    case "owner_changed":
      return entry.to ? (
        <>
          {who(entry.actor)} assigned it to <strong className="font-semibold">{entry.to}</strong>
          {entry.from ? ` (was ${entry.from})` : ""}
        </>
      ) : (
        <>
          {who(entry.actor)} unassigned it{entry.from ? ` (was ${entry.from})` : ""}
        </>
      );
    case "spam_held":
      return (
        <>
          Held as spam by the spam filter (score {entry.score}): {entry.reasons.join("; ")}
        </>
      );
    case "marked_spam":
      return <>{who(entry.actor)} marked it as spam</>;
    case "marked_not_spam":
      return <>{who(entry.actor)} marked it as not spam</>;
    case "notification_sent":
      return <>Sales notification emailed</>;
    case "notification_failed":
      return (
        <>
          Sales notification failed (attempt {entry.attempt}): {entry.error}
          {entry.final ? " — not retried" : " — will be retried"}
        </>
      );
  }
}

export default function LeadDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { lead, owner, staff, timeline, otherSubmissions, confirmDelete, notice } = loaderData;
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const investorTypes = (Object.keys(INVESTOR_LABELS) as (keyof typeof INVESTOR_LABELS)[])
    .filter((key) => lead.investorType[key])
    .map((key) => INVESTOR_LABELS[key]);
  const error = actionData && typeof actionData === "object" ? actionData : undefined;

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6">
      <BackOfficeBar />

      <div>
        <p className="text-sm font-semibold tracking-wider text-ink-muted uppercase">
          {lead.requestType === "investor" ? "Investor interest" : "Demo request"} #{lead.id}
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight break-words">{lead.fullName}</h1>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <StatusBadge status={lead.status} />
          <TypeBadge type={lead.type} />
          {lead.returning ? <ReturningBadge /> : null}
          <SpamLevelBadge level={lead.spamLevel} reasons={lead.spamReasons} />
          <span className="text-sm text-ink-muted">
            Owner: {owner ? `${owner.username}${owner.disabled ? " (disabled)" : ""}` : "unassigned"}
          </span>
        </div>
      </div>

      {error?.message ? <Banner tone="error">{error.message}</Banner> : <NoticeBanner notice={notice} />}
      {confirmDelete ? <DeleteLeadConfirmation lead={lead} action={pathname} /> : null}

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="grid gap-6 lg:col-span-2">
          <Card id="details-heading" title="Details">
            <dl className="mt-4">
              <Detail label="Full name">{lead.fullName}</Detail>
              <Detail label="Company">{lead.company}</Detail>
              <Detail label="Email">
                <a className="text-brand underline underline-offset-2" href={`mailto:${lead.email}`}>
                  {lead.email}
                </a>
              </Detail>
              <Detail label="Phone">
                <a
                  className="text-brand underline underline-offset-2"
                  href={`tel:${lead.phone.replace(/[^+\d]/g, "")}`}
                >
                  {lead.phone}
                </a>
              </Detail>
              <Detail label="Message">
                {lead.message ? <span className="whitespace-pre-wrap">{lead.message}</span> : none}
              </Detail>
              {lead.requestType === "investor" ? (
                <>
                  <Detail label="Investor type">
                    {investorTypes.length > 0 ? investorTypes.join(", ") : none}
                  </Detail>
                  <Detail label="Other details">
                    {lead.otherDetails ? (
                      <span className="whitespace-pre-wrap">{lead.otherDetails}</span>
                    ) : (
                      none
                    )}
                  </Detail>
                </>
              ) : null}
              <Detail label="Source">{sourceText(lead.source, lead.sourcePage)}</Detail>
              <Detail label="Privacy notice version">{lead.privacyNoticeVersion}</Detail>
              <Detail label="Spam">
                {lead.spamLevel === "held"
                  ? "Held as spam"
                  : lead.spamLevel === "review"
                    ? "To review"
                    : "No"}
                {lead.spamReasons.length > 0 ? (
                  <span className="mt-1 block text-sm text-ink-muted">
                    Score {lead.spamScore}: {lead.spamReasons.join("; ")}
                  </span>
                ) : null}
              </Detail>
              <Detail label="Created">{lead.created}</Detail>
              <Detail label="Updated">{lead.updated}</Detail>
            </dl>
          </Card>

          <Card id="notes-heading" title="Add a note">
            <Form method="post" action={pathname} className="mt-4 grid gap-3">
              <input type="hidden" name="intent" value="note" />
              <label htmlFor="note-body" className="sr-only">
                Note
              </label>
              <Textarea
                id="note-body"
                name="body"
                rows={4}
                maxLength={NOTE_MAX_LENGTH}
                required
                defaultValue={error && "body" in error ? String(error.body) : ""}
                key={notice === "note" ? "sent" : "draft"}
                placeholder="What you learned, what happens next…"
                aria-invalid={error && "field" in error && error.field === "note" ? true : undefined}
              />
              <div>
                <Button type="submit" disabled={busy("note")}>
                  {busy("note") ? "Saving..." : "Add note"}
                </Button>
              </div>
            </Form>
          </Card>

          <Card id="timeline-heading" title="Timeline">
            <ol className="mt-4 grid gap-0">
              {timeline.map((entry) => (
                <li key={entry.id} className="relative border-l-2 border-line pb-4 pl-5 last:pb-0">
                  <span
                    aria-hidden="true"
                    className="absolute top-1.5 -left-[7px] size-3 rounded-full bg-brand"
                  />
                  <p className="text-sm text-ink-muted">{entry.when}</p>
                  <div className="mt-0.5 leading-6">{describe(entry)}</div>
                </li>
              ))}
            </ol>
          </Card>
        </div>

        <div className="grid gap-6">
          <Card id="work-heading" title="Work this lead">
            <div className="mt-4 grid gap-5">
              <div className="grid gap-1.5">
                <p className="font-semibold">Status</p>
                <LeadStatusControl lead={lead} action={pathname} />
              </div>
              <Form method="post" action={pathname} className="grid gap-1.5">
                <input type="hidden" name="intent" value="owner" />
                <label htmlFor="lead-owner" className="font-semibold">
                  Owner
                </label>
                <div className="flex flex-wrap gap-2">
                  <NativeSelect
                    id="lead-owner"
                    name="ownerId"
                    compact
                    className="min-w-40 flex-1"
                    defaultValue={lead.ownerId ?? ""}
                    key={lead.ownerId ?? "none"}
                  >
                    <option value="">Unassigned</option>
                    {staff
                      .filter((member) => !member.disabled || member.id === lead.ownerId)
                      .map((member) => (
                        <option key={member.id} value={member.id} disabled={member.disabled}>
                          {member.username}
                          {member.disabled ? " (disabled)" : ""}
                        </option>
                      ))}
                  </NativeSelect>
                  <Button type="submit" size="sm" variant="outline" disabled={busy("owner")}>
                    {busy("owner") ? "Saving..." : "Assign"}
                  </Button>
                </div>
              </Form>
              <div className="grid gap-1.5">
                <p className="font-semibold">Spam</p>
                <div className="flex flex-wrap gap-2">
                  {lead.spamLevel !== "clean" || lead.isSpam ? (
                    <Form method="post" action={pathname}>
                      <input type="hidden" name="intent" value="spam" />
                      <input type="hidden" name="value" value="false" />
                      <Button
                        type="submit"
                        size="sm"
                        variant={lead.isSpam ? "primary" : "outline"}
                        disabled={busy("spam")}
                      >
                        Not spam
                      </Button>
                    </Form>
                  ) : null}
                  {lead.isSpam ? null : (
                    <Form method="post" action={pathname}>
                      <input type="hidden" name="intent" value="spam" />
                      <input type="hidden" name="value" value="true" />
                      <Button type="submit" size="sm" variant="outline" disabled={busy("spam")}>
                        Mark as spam
                      </Button>
                    </Form>
                  )}
                </div>
                <p className="text-sm text-ink-muted">
                  {lead.isSpam
                    ? "Held out of the list. “Not spam” brings it back and notifies sales."
                    : lead.spamLevel === "review"
                      ? "The spam filter asks you to look at this one; it is in the list."
                      : "Spam is held out of the list, under Spam."}
                </p>
              </div>
            </div>
          </Card>

          <Card id="others-heading" title="Other submissions">
            {otherSubmissions.length === 0 ? (
              <p className="mt-2 text-ink-muted">None: this is the first request from {lead.email}.</p>
            ) : (
              <ul className="mt-3 grid gap-3">
                {otherSubmissions.map((other) => (
                  <li
                    key={other.id}
                    className="grid gap-1 border-t border-line pt-3 first:border-0 first:pt-0"
                  >
                    <Link
                      to={`/admin/leads/${other.id}`}
                      className="font-semibold break-words text-brand underline underline-offset-2"
                    >
                      #{other.id} {other.fullName}
                    </Link>
                    <span className="text-sm text-ink-muted">
                      {other.company} · {other.created}
                    </span>
                    <span className="flex flex-wrap gap-1">
                      <TypeBadge type={other.type} />
                      <StatusBadge status={other.status} />
                      {other.isSpam ? <SpamLevelBadge level="held" reasons={[]} /> : null}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card id="erase-heading" title="Erase this lead">
            <p className="mt-2 mb-4 leading-6 text-ink-muted">
              For an erasure request: removes the lead, its notes and its history for good.
            </p>
            <DeleteLeadButton lead={lead} />
          </Card>
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound && !isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold tracking-tight">
        {notFound ? "Lead not found" : "Something went wrong"}
      </h1>
      <p className="mt-4 text-ink-muted">
        {notFound
          ? "There is no lead with this number. It may have been erased."
          : "The lead could not be shown. Please try again in a moment."}
      </p>
      <Link to={DASHBOARD_PATH} className="mt-8 inline-block font-semibold text-brand underline">
        Back to Dashboard
      </Link>
    </div>
  );
}
