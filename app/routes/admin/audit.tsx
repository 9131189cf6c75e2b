import { useState } from "react";
import { Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { auditFormAction, loadAuditPage } from "#app/features/audits/audit-page.server.ts";
import { AUDIT_PATH, detailsHref } from "#app/features/audits/audit-paths.ts";
import type { PerformanceResult } from "#app/features/audits/audit-types.ts";
import { TlsCheckPanel } from "#app/features/audits/tls/tls-check-panel.tsx";
import { AuditDetailsSection } from "#app/features/audits/ui/audit-details.tsx";
import { AuditFormOutcome } from "#app/features/audits/ui/audit-form-outcome.tsx";
import { AuditHistory } from "#app/features/audits/ui/audit-history.tsx";
import { AuditRunner } from "#app/features/audits/ui/audit-runner.tsx";
import { AUDIT_TEXT } from "#app/features/audits/ui/audit-texts.ts";
import { LabCheckCard } from "#app/features/audits/ui/lab-check-card.tsx";
import { PerformanceCard } from "#app/features/audits/ui/performance-card.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { publicUrl } from "#app/lib/site/public-url.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/audit";

// SPEC section 2 /admin/audit: security audits (stored, with a history) and performance checks of
// a website, the product's own by default. With JavaScript the buttons call the JSON API; without
// it the same form posts to this page's action, which runs the same server functions.

export const meta: Route.MetaFunction = () => adminMeta("Website audits");

/** A busy answer (503) from the form's action tells the browser when to try again. */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const merged = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) merged.set("Retry-After", retryAfter);
  return merged;
};

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadAuditPage(request, context, publicUrl);
}

/** Without JavaScript: `intent=audit`, `check` or `tls` with `url`; the page shows what came of it. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return auditFormAction(request, context, adminUser(context).username);
}

export default function AdminAudit({ loaderData, actionData }: Route.ComponentProps) {
  const { defaultUrl, loadError, audits, details, latestCheck, latestLab, labHistory } = loaderData;
  // A check run from the browser; else one posted without JavaScript; else the last one stored.
  const [checked, setChecked] = useState<PerformanceResult | null>(null);
  const posted = actionData && "performance" in actionData ? actionData.performance : null;
  const performance = checked ?? posted ?? latestCheck?.result ?? null;
  const postedTls =
    actionData?.intent === "tls"
      ? { url: actionData.url, result: "tls" in actionData ? actionData.tls : null }
      : null;
  const labPosted = actionData?.intent === "lab" ? actionData : null;

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6">
      {/* SPEC: /admin/audit keeps its 'Back to Dashboard' link, beside the shell's navigation. */}
      <Link to={DASHBOARD_PATH} className="self-start font-semibold text-brand underline underline-offset-2">
        <span aria-hidden="true">← </span>
        {AUDIT_TEXT.backToDashboard}
      </Link>

      <PageHeader
        title="Website audits"
        description="Check a website's security set-up and how fast it answers. Security audits are kept below."
      />

      {actionData ? <AuditFormOutcome outcome={actionData} /> : null}
      {details ? <AuditDetailsSection audit={details} closeHref={AUDIT_PATH} /> : null}

      <section aria-labelledby="run-heading" className="rounded-xl border border-line bg-white p-6 shadow-sm">
        <h2 id="run-heading" className="mb-4 text-xl font-semibold">
          Audit a website
        </h2>
        <AuditRunner
          // After a post without JavaScript, the address that was sent (empty included).
          defaultUrl={actionData && actionData.intent !== "tls" ? actionData.url : defaultUrl}
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

      <TlsCheckPanel defaultUrl={defaultUrl} action={AUDIT_PATH} posted={postedTls} />
      <LabCheckCard
        defaultUrl={labPosted ? labPosted.url : defaultUrl}
        action={AUDIT_PATH}
        posted={
          labPosted?.result
            ? { result: labPosted.result }
            : labPosted?.refused
              ? { refused: labPosted.refused }
              : null
        }
        latest={latestLab}
        history={labHistory}
      />

      <section aria-labelledby="history-heading" className="flex flex-col gap-4">
        <h2 id="history-heading" className="text-2xl font-bold tracking-tight">
          Audit history
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
