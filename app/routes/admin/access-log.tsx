import { Form, Link } from "react-router";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { authServices } from "#app/features/auth/auth-context.server.ts";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { isPostAction, postLogAbout, postLogDetail } from "#app/features/content/posts/post-log-words.ts";
import { exportFilterWords, exportHeadline } from "#app/features/leads/export-log-words.ts";
import { type AccessEntry, listAccessLog } from "#app/lib/access-log.server.ts";
import { ACCESS_ACTIONS, ACCESS_KINDS, type AccessKind, isAccessKind } from "#app/lib/access-log.ts";
import { countOf } from "#app/lib/count-words.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { isRole, ROLE_LABELS } from "#app/lib/permissions.ts";
import type { Route } from "./+types/access-log";

// Issue 13: the staff access log, for admins (everyone in the back office is one, SPEC section 6):
// sign-ins and failures, session and account changes, exports with their filter and row count, and
// erasures, newest first, 50 a page. A plain GET form filters it, with or without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Access log");

const KIND_LABELS: Record<AccessKind, string> = {
  "sign-ins": "Sign-ins",
  exports: "Exports",
  "added-leads": "Leads added and imported",
  erasures: "Erasures",
  content: "Publishing and restores",
  accounts: "Accounts and sessions",
  "two-factor": "Two-factor sign-in",
};

const SECOND_STEP_WORDS: Record<string, string> = {
  app: "with an authenticator code",
  recovery: "with a recovery code",
  enrolled: "after setting up two-factor sign-in",
};

/** What an entry says happened: an export says how many leads went out. */
function describeAction(entry: AccessEntry): string {
  if (entry.action === "export")
    return exportHeadline(Number(entry.detail.rows ?? 0), entry.detail.complete !== false);
  return ACCESS_ACTIONS[entry.action] ?? entry.action;
}

/** A role as the log names it: "Sales"; "No access" for an account without one. */
const roleWords = (value: unknown) => (isRole(value) ? ROLE_LABELS[value] : "No access");

/** What an entry's details say, in words. */
function describeDetail(entry: AccessEntry): string | null {
  const { detail } = entry;
  switch (entry.action) {
    case "export":
      return exportFilterWords(String(detail.filter ?? "all leads"));
    case "sign_in": {
      const browser = typeof detail.browser === "string" ? detail.browser : null;
      const second = detail.twoFactor ? SECOND_STEP_WORDS[String(detail.twoFactor)] : undefined;
      return [browser, second].filter(Boolean).join(" · ") || null;
    }
    case "sign_in_failed":
      if (detail.step === "two-factor") return "Wrong or reused two-factor code";
      return detail.account === "unknown"
        ? "No such account"
        : "Wrong password, or the account cannot sign in";
    case "two_factor_recovery_used":
      return `${countOf(Number(detail.left ?? 0), "recovery code")} left`;
    case "sessions_ended":
      return `${countOf(Number(detail.ended ?? 0), "session")} ended`;
    case "staff_role_changed":
      return `${roleWords(detail.from)} → ${roleWords(detail.to)}`;
    case "staff_created":
      return detail.role === undefined ? null : roleWords(detail.role);
    default:
      return isPostAction(entry.action) ? postLogDetail(entry.action, detail) : null;
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const rawKind = url.searchParams.get("kind");
  const kind = isAccessKind(rawKind) ? rawKind : undefined;
  const before = Number(url.searchParams.get("before"));
  const { database, env } = await authServices(context);
  const page = await listAccessLog(database.db, {
    kind,
    before: Number.isSafeInteger(before) && before > 0 ? before : undefined,
  });
  return {
    kind: kind ?? "",
    olderHref: page.nextBefore
      ? `?${new URLSearchParams({ ...(kind ? { kind } : {}), before: String(page.nextBefore) })}`
      : null,
    paged: url.searchParams.has("before"),
    keptDays: env.ACCESS_LOG_DAYS,
    entries: page.entries.map((entry) => ({
      id: entry.id,
      what: describeAction(entry),
      failed: entry.action === "sign_in_failed",
      about:
        entry.subject ??
        (entry.leadId !== null
          ? `lead #${entry.leadId}`
          : isPostAction(entry.action)
            ? postLogAbout(entry.detail)
            : null),
      who: entry.actor ?? (entry.action === "sign_in_failed" ? "unknown account" : "command line"),
      when: formatDateTime(entry.occurredAt),
      occurredAt: entry.occurredAt,
      detail: describeDetail(entry),
      network: entry.network,
    })),
  };
}

export default function AccessLog({ loaderData }: Route.ComponentProps) {
  const { kind, entries, olderHref, paged, keptDays } = loaderData;
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Access log"
        description={
          <>
            Who signed in or tried to, who exported or erased leads, who published, scheduled, unpublished or
            restored a post, and every change to staff accounts, two-factor sign-in and sessions, newest
            first. Entries are kept {keptDays} days. Leads are named by number and addresses only by their
            network.
          </>
        }
      />

      <Form method="get" className="flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm font-semibold">
          Show
          <select
            name="kind"
            defaultValue={kind}
            className="h-10 rounded-md border border-line bg-white px-3 text-base font-normal"
          >
            <option value="">Everything</option>
            {(Object.keys(ACCESS_KINDS) as AccessKind[]).map((value) => (
              <option key={value} value={value}>
                {KIND_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="outline">
          Show entries
        </Button>
      </Form>

      {entries.length === 0 ? (
        <p className="rounded-xl border border-line bg-white px-6 py-12 text-center text-ink-muted">
          {paged ? "No older entries." : "Nothing recorded yet."}
        </p>
      ) : (
        <ol
          aria-label="Entries"
          className="divide-y divide-line rounded-xl border border-line bg-white shadow-sm"
        >
          {entries.map((entry) => (
            <li key={entry.id} className="grid gap-1 p-4 sm:px-6">
              <p className="flex flex-wrap items-baseline gap-x-2">
                <span className={entry.failed ? "font-semibold text-danger" : "font-semibold"}>
                  {entry.what}
                </span>
                {entry.about ? <span className="break-all">{entry.about}</span> : null}
              </p>
              <p className="flex flex-wrap gap-x-3 text-sm text-ink-muted">
                <span>
                  by <span className="font-semibold text-ink">{entry.who}</span>
                </span>
                <time dateTime={entry.occurredAt}>{entry.when}</time>
                {entry.network ? <span className="font-mono">{entry.network}</span> : null}
              </p>
              {entry.detail ? <p className="text-sm break-words">{entry.detail}</p> : null}
            </li>
          ))}
        </ol>
      )}

      {olderHref ? (
        <Link
          to={olderHref}
          className="justify-self-start font-semibold text-brand underline underline-offset-2"
        >
          Older entries
        </Link>
      ) : null}
    </div>
  );
}
