import { useState } from "react";
import { data, Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { retryAfterHeader } from "#app/features/audits/audit-http.server.ts";
import { runPerformanceCheckForAdmin, runSecurityAudit } from "#app/features/audits/audit-service.server.ts";
import {
  listPerformanceChecks,
  listSecurityAudits,
  type SecurityAuditRecord,
} from "#app/features/audits/audit-store.server.ts";
import type { PerformanceResult } from "#app/features/audits/audit-types.ts";
import { AuditDetailsSection } from "#app/features/audits/ui/audit-details.tsx";
import { auditSummaryText, loadTimeText } from "#app/features/audits/ui/audit-format.ts";
import { AuditHistory } from "#app/features/audits/ui/audit-history.tsx";
import { AuditRunner } from "#app/features/audits/ui/audit-runner.tsx";
import { AUDIT_TEXT, type AuditIntent, urlRequiredText } from "#app/features/audits/ui/audit-texts.ts";
import type { AuditRow } from "#app/features/audits/ui/audit-view.ts";
import { PerformanceCard } from "#app/features/audits/ui/performance-card.tsx";
import { adminUser } from "#app/features/auth/admin-guard.server.ts";
import { assertSameOrigin } from "#app/features/auth/guard.server.ts";
import { LogoutButton } from "#app/features/auth/ui/logout-button.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { publicUrl } from "#app/features/content/public-url.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { getServices } from "#app/services.server.ts";
import type { Route } from "./+types/audit";

// SPEC section 2 /admin/audit: security audits (stored, with a history) and performance checks of
// a website, the product's own by default. With JavaScript the buttons call the JSON API; without
// it the same form posts to this page's action, which runs the same server functions.

const AUDIT_PATH = "/admin/audit";
const DETAILS_PARAM = "details";
const HISTORY_LIMIT = 50;

export const meta: Route.MetaFunction = () => adminMeta("Website Audit");

/** A busy answer (503) from the form's action tells the browser when to try again. */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const merged = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) merged.set("Retry-After", retryAfter);
  return merged;
};

function toRow(record: SecurityAuditRecord): AuditRow {
  return {
    id: record.id,
    date: formatDateTime(record.date),
    isoDate: record.date,
    url: record.url,
    score: record.score,
    uncappedScore: record.uncappedScore,
    algorithmVersion: record.algorithmVersion,
    grade: record.grade,
    issues: record.issues,
  };
}

const detailsHref = (audit: Pick<AuditRow, "id">) =>
  `${AUDIT_PATH}?${DETAILS_PARAM}=${encodeURIComponent(String(audit.id))}#audit-details`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { database, env } = await getServices(context);
  // The product's own hosted address (SPEC section 2), PUBLIC_URL when the server was given one.
  const defaultUrl = env.PUBLIC_URL?.replace(/\/+$/, "") || publicUrl;
  const detailsId = new URL(request.url).searchParams.get(DETAILS_PARAM);
  try {
    const [records, checks] = await Promise.all([
      listSecurityAudits(database.db, { limit: HISTORY_LIMIT }),
      listPerformanceChecks(database.db, { limit: 1 }),
    ]);
    const audits = records.map(toRow);
    const latest = checks[0];
    return {
      defaultUrl,
      loadError: false,
      audits,
      details: detailsId === null ? null : (audits.find((audit) => String(audit.id) === detailsId) ?? null),
      latestCheck: latest ? { result: latest, date: formatDateTime(latest.date) } : null,
    };
  } catch (error) {
    console.error("Admin audit page: loading the stored audits failed", error);
    return data(
      { defaultUrl, loadError: true, audits: [], details: null, latestCheck: null },
      { status: 503 },
    );
  }
}

type ActionData =
  | { intent: "unknown"; url: string }
  | { intent: AuditIntent; url: string; required: true }
  | {
      intent: "audit";
      url: string;
      audit:
        | { ok: true; id: number; score: number; grade: string; issues: unknown[] }
        | { ok: false; message: string };
    }
  | { intent: "check"; url: string; performance: PerformanceResult }
  | { intent: "check"; url: string; refused: string };

/** Without JavaScript: `intent=audit` or `intent=check` with `url`; the page shows what came of it. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const actor = adminUser(context).username;
  const form = await readForm(request);
  const intent = form.get("intent");
  const rawUrl = form.get("url");
  const url = typeof rawUrl === "string" ? rawUrl.trim() : "";
  if (intent !== "audit" && intent !== "check") {
    return data<ActionData>({ intent: "unknown", url }, { status: 400 });
  }
  if (!url) return data<ActionData>({ intent, url, required: true }, { status: 400 });
  if (intent === "audit") {
    const outcome = await runSecurityAudit(context, url, actor);
    if (!outcome.ok) {
      return data<ActionData>(
        { intent, url, audit: { ok: false, message: outcome.message } },
        { status: outcome.status, headers: retryAfterHeader(outcome.retryAfter) },
      );
    }
    const { id, score, grade, issues } = outcome.record;
    return data<ActionData>({ intent, url, audit: { ok: true, id, score, grade, issues } });
  }
  const outcome = await runPerformanceCheckForAdmin(context, url, actor);
  if (!outcome.ok)
    return data<ActionData>(
      { intent, url, refused: outcome.message },
      { status: outcome.status, headers: retryAfterHeader(outcome.retryAfter) },
    );
  return data<ActionData>({ intent, url, performance: outcome.result });
}

/** What a form post without JavaScript came to (the script shows the same as toasts). */
function ActionOutcome({ outcome }: { outcome: ActionData }) {
  if (outcome.intent === "unknown") return <Banner tone="error">Unknown action.</Banner>;
  if ("required" in outcome) {
    return (
      <Banner tone="error">
        <strong className="font-semibold">{AUDIT_TEXT.urlRequired}.</strong> {urlRequiredText(outcome.intent)}
      </Banner>
    );
  }
  if ("audit" in outcome) {
    const { audit } = outcome;
    return audit.ok ? (
      <Banner tone="success">
        <strong className="font-semibold">{AUDIT_TEXT.auditComplete}.</strong> {auditSummaryText(audit)}{" "}
        <Link to={detailsHref(audit)} className="font-semibold underline underline-offset-2">
          View its details
        </Link>
      </Banner>
    ) : (
      <Banner tone="error">
        <strong className="font-semibold">{AUDIT_TEXT.auditFailed}.</strong> {audit.message}
      </Banner>
    );
  }
  if ("refused" in outcome) {
    return (
      <Banner tone="error">
        <strong className="font-semibold">{AUDIT_TEXT.checkFailed}.</strong> {outcome.refused}
      </Banner>
    );
  }
  const { performance } = outcome;
  return performance.error ? (
    <Banner tone="error">
      <strong className="font-semibold">{AUDIT_TEXT.checkFailed}.</strong> {performance.error}
    </Banner>
  ) : (
    <Banner tone="success">
      <strong className="font-semibold">{AUDIT_TEXT.checkComplete}.</strong> {loadTimeText(performance)}
    </Banner>
  );
}

export default function AdminAudit({ loaderData, actionData }: Route.ComponentProps) {
  const { defaultUrl, loadError, audits, details, latestCheck } = loaderData;
  // A check run from the browser; else one posted without JavaScript; else the last one stored.
  const [checked, setChecked] = useState<PerformanceResult | null>(null);
  const posted = actionData && "performance" in actionData ? actionData.performance : null;
  const performance = checked ?? posted ?? latestCheck?.result ?? null;

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <Link to={DASHBOARD_PATH} className="font-semibold text-brand underline underline-offset-2">
          <span aria-hidden="true">← </span>
          {AUDIT_TEXT.backToDashboard}
        </Link>
        <LogoutButton />
      </div>

      <div>
        <h1 className="text-3xl font-bold tracking-tight">Website Audit</h1>
        <p className="mt-1 max-w-3xl leading-7 text-ink-muted">
          Check a website's security set-up and how fast it answers. Security audits are kept below.
        </p>
      </div>

      {actionData ? <ActionOutcome outcome={actionData} /> : null}
      {details ? <AuditDetailsSection audit={details} closeHref={AUDIT_PATH} /> : null}

      <section aria-labelledby="run-heading" className="rounded-xl border border-line bg-white p-6 shadow-sm">
        <h2 id="run-heading" className="mb-4 text-xl font-semibold">
          Audit a website
        </h2>
        <AuditRunner
          // After a post without JavaScript, the address that was sent (empty included).
          defaultUrl={actionData ? actionData.url : defaultUrl}
          action={AUDIT_PATH}
          onPerformance={setChecked}
        />
      </section>

      {performance ? (
        <PerformanceCard
          result={performance}
          checkedAt={performance === latestCheck?.result ? latestCheck.date : undefined}
        />
      ) : null}

      <section aria-labelledby="history-heading" className="flex flex-col gap-4">
        <h2 id="history-heading" className="text-2xl font-bold tracking-tight">
          Audit History
        </h2>
        {loadError ? (
          <Banner tone="error">The audit history could not be loaded. Please try again in a moment.</Banner>
        ) : (
          <AuditHistory audits={audits} detailsHref={detailsHref} />
        )}
      </section>
    </div>
  );
}
