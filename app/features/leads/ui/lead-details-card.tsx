import { type FormEvent, type MouseEvent, type ReactNode, useRef, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { toast } from "#app/components/ui/toast-store.ts";
import { NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import type { LeadOrigin } from "#app/lib/lead-origin.ts";
import { formatPolicyDate } from "#app/lib/site/privacy-changes.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { Lead } from "../lead-repository.server.ts";
import {
  type DetailsErrors,
  type DetailsValues,
  detailsBody,
  type EditableField,
  LeadDetailsForm,
} from "./lead-details-edit.tsx";
import { sourceText } from "./lead-format.ts";

function Detail({
  label,
  children,
  onEdit,
}: {
  label: string;
  children: ReactNode;
  /** With JavaScript: the row's own "Edit", which opens the card's form on this field. */
  onEdit?: () => void;
}) {
  return (
    <div className="group/detail grid gap-1 border-t border-line py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="font-semibold">{label}</dt>
      <dd className="flex min-w-0 items-start justify-between gap-2 break-words sm:col-span-2">
        <span className="min-w-0 break-words" data-value>
          {children}
        </span>
        {onEdit ? (
          <button
            type="button"
            onClick={onEdit}
            className="-my-1 shrink-0 rounded px-2 py-1 text-sm font-semibold text-brand opacity-70 group-hover/detail:opacity-100 hover:bg-brand-soft focus-visible:opacity-100 focus-visible:outline-3 focus-visible:outline-brand"
          >
            Edit<span className="sr-only"> {label.toLowerCase()}</span>
          </button>
        ) : null}
      </dd>
    </div>
  );
}

const none = <span className="text-ink-muted">—</span>;

const INVESTOR_LABELS = { angel: "Angel", vc: "VC", introducer: "Introducer", other: "Other" } as const;

/**
 * Everything the person sent and the product recorded with it; email and phone are links. What the
 * form collected can be corrected (issue 35): "Edit details" (or a field's own "Edit") turns those
 * rows into a form, in place with JavaScript, as `?edit=details` without.
 */
export function LeadDetailsCard({
  lead,
  action,
  editHref,
  cancelHref,
  serverEditing,
  serverErrors,
  serverValues,
}: {
  lead: Lead & { created: string; updated: string; origin: LeadOrigin };
  /** The page's URL (with its list state), whose action takes `intent=details`. */
  action: string;
  /** The page as a form (`?edit=details`), and without it. */
  editHref: string;
  cancelHref: string;
  /** The page was asked for as a form, or its post was refused (errors beside the fields). */
  serverEditing: boolean;
  serverErrors?: DetailsErrors;
  serverValues?: DetailsValues;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<{ focus?: EditableField } | null>(serverEditing ? {} : null);
  const [errors, setErrors] = useState<DetailsErrors>(serverErrors ?? {});
  const [pending, setPending] = useState(false);
  const editButton = useRef<HTMLAnchorElement>(null);
  const open = hydrated ? editing !== null : serverEditing;

  const investorTypes = (Object.keys(INVESTOR_LABELS) as (keyof typeof INVESTOR_LABELS)[])
    .filter((key) => lead.investorType[key])
    .map((key) => INVESTOR_LABELS[key]);

  const start = (focus?: EditableField) => {
    setErrors({});
    setEditing({ focus });
  };
  const close = () => {
    setEditing(null);
    setErrors({});
    // Back where the person was: the card's own Edit button.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const edit = hydrated && !open ? (field: EditableField) => () => start(field) : () => undefined;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const body = detailsBody(event.currentTarget, lead.requestType === "investor");
    if (Object.keys(body).length === 0) {
      toast({ title: "Nothing changed", description: "The details are as they were." });
      close();
      return;
    }
    setPending(true);
    try {
      const response = await sendJson(`/api/admin/leads/${lead.id}`, "PATCH", body);
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as {
          message?: string;
          errors?: DetailsErrors;
        };
        const fieldErrors = body.errors && Object.keys(body.errors).length > 0 ? body.errors : undefined;
        setErrors(fieldErrors ?? { form: body.message ?? `${response.status}: ${response.statusText}` });
        return;
      }
      toast({ title: "Details saved", description: "Each change is on the lead's timeline." });
      await revalidator.revalidate();
      close();
    } catch {
      setErrors({ form: NETWORK_ERROR });
    } finally {
      setPending(false);
    }
  }

  const editable = (field: EditableField) => (hydrated && !open ? edit(field) : undefined);

  return (
    <section
      aria-labelledby="details-heading"
      className="rounded-xl border border-line bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="details-heading" className="text-xl font-semibold">
          Details
        </h2>
        {open ? null : (
          <Link
            ref={editButton}
            to={editHref}
            preventScrollReset
            onClick={
              hydrated
                ? (event: MouseEvent) => {
                    event.preventDefault();
                    start();
                  }
                : undefined
            }
            className="inline-flex h-9 items-center rounded-md border border-brand px-3 text-sm font-semibold text-brand hover:bg-brand-soft focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand"
          >
            Edit details
          </Link>
        )}
      </div>
      {open ? (
        <LeadDetailsForm
          key={lead.updatedAt}
          lead={lead}
          action={action}
          cancelHref={cancelHref}
          values={hydrated ? undefined : serverValues}
          errors={hydrated ? errors : (serverErrors ?? {})}
          focusField={editing?.focus}
          pending={pending}
          onSubmit={hydrated ? submit : undefined}
          onCancel={hydrated ? close : undefined}
        />
      ) : null}
      <dl className="mt-4">
        {open ? null : (
          <>
            <Detail label="Full name" onEdit={editable("fullName")}>
              {lead.fullName}
            </Detail>
            <Detail label="Company" onEdit={editable("company")}>
              {lead.company}
            </Detail>
            <Detail label="Email" onEdit={editable("email")}>
              <a className="text-brand underline underline-offset-2" href={`mailto:${lead.email}`}>
                {lead.email}
              </a>
            </Detail>
            <Detail label="Phone" onEdit={editable("phone")}>
              <a
                className="text-brand underline underline-offset-2"
                href={`tel:${lead.phone.replace(/[^+\d]/g, "")}`}
              >
                {lead.phone}
              </a>
            </Detail>
            <Detail label="Message" onEdit={editable("message")}>
              {lead.message ? <span className="whitespace-pre-wrap">{lead.message}</span> : none}
            </Detail>
            {lead.requestType === "investor" ? (
              <>
                <Detail label="Investor type" onEdit={editable("investorType")}>
                  {investorTypes.length > 0 ? investorTypes.join(", ") : none}
                </Detail>
                <Detail label="Other details" onEdit={editable("otherDetails")}>
                  {lead.otherDetails ? (
                    <span className="whitespace-pre-wrap">{lead.otherDetails}</span>
                  ) : (
                    none
                  )}
                </Detail>
              </>
            ) : null}
          </>
        )}
        <Detail label="Source">{sourceText(lead.source, lead.sourcePage, lead.origin)}</Detail>
        <Detail label="Spam">
          {lead.spamLevel === "held" ? "Held as spam" : lead.spamLevel === "review" ? "To review" : "No"}
          {lead.spamReasons.length > 0 ? (
            <span className="mt-1 block text-sm text-ink-muted">
              Score {lead.spamScore}: {lead.spamReasons.join("; ")}
            </span>
          ) : null}
        </Detail>
        <Detail label="Created">{lead.created}</Detail>
        <Detail label="Updated">{lead.updated}</Detail>
      </dl>
      {/* The legal record (what the person was shown when they sent it): kept, but out of the way
          of the work until someone asks. A native disclosure, so it opens without JavaScript. */}
      <details className="group mt-2 border-t border-line pt-3">
        <summary className="flex cursor-pointer list-none items-center gap-2 font-semibold text-brand [&::-webkit-details-marker]:hidden">
          <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
            ›
          </span>
          Record
          <span className="text-sm font-normal text-ink-muted">privacy notice and policy shown</span>
        </summary>
        <dl className="mt-2">
          <Detail label="Privacy notice version">{lead.privacyNoticeVersion}</Detail>
          <Detail label="Policy last changed">
            <time dateTime={lead.policyVersion}>{formatPolicyDate(lead.policyVersion)}</time>
            <span className="mt-1 block text-sm text-ink-muted">
              The privacy policy in force when the lead was sent: its latest change then (“Changes”)
            </span>
          </Detail>
        </dl>
      </details>
    </section>
  );
}
