import { Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { DataTable } from "#app/components/ui/data-table.tsx";
import { AlertList } from "#app/features/audits/watches/ui/alert-list.tsx";
import { WatchForm } from "#app/features/audits/watches/ui/watch-form.tsx";
import {
  checksText,
  everyText,
  RUN_STATUS_TEXT,
  whenText,
} from "#app/features/audits/watches/ui/watch-format.ts";
import { loadWatchesPage, watchesFormAction } from "#app/features/audits/watches/watch-page.server.ts";
import { WATCH_NOTICES, WATCHES_PATH, watchPath } from "#app/features/audits/watches/watch-paths.ts";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/watches";

// Issue 25: the watched sites, their open alerts, and the form to add one. Server-rendered; the form
// posts to this page's action without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Watches");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadWatchesPage(request, context, adminUser(context).username);
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return watchesFormAction(request, context, adminUser(context).username);
}

export default function Watches({ loaderData, actionData }: Route.ComponentProps) {
  const { watches, openAlerts, checks, notice, defaultRecipients } = loaderData;
  const error = actionData?.kind === "error" ? actionData : null;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6">
      <PageHeader
        title="Watches"
        description="Sites the audits check on a schedule. Every run is kept; when a site gets worse, the people named get an email and the audit.alert webhooks fire."
      />
      {notice && !actionData ? <Banner tone="success">{WATCH_NOTICES[notice]}</Banner> : null}
      {error && Object.keys(error.errors).length === 0 ? <Banner tone="error">{error.message}</Banner> : null}

      <section aria-labelledby="open-alerts-heading" className="flex flex-col gap-4">
        <h2 id="open-alerts-heading" className="text-2xl font-bold tracking-tight">
          Open alerts
        </h2>
        {openAlerts.length === 0 ? (
          <p className="text-ink-muted">No open alerts.</p>
        ) : (
          <AlertList alerts={openAlerts} showSite />
        )}
      </section>

      <section aria-labelledby="watched-heading" className="flex flex-col gap-4">
        <h2 id="watched-heading" className="text-2xl font-bold tracking-tight">
          Watched sites
        </h2>
        {watches.length === 0 ? (
          <p className="rounded-xl border border-line bg-white px-6 py-10 text-center text-ink-muted">
            No watches yet. Add the first one below.
          </p>
        ) : (
          <DataTable
            label="Watched sites table"
            columns={["Site", "Checks", "Every", "Last run", "Status", "Open alerts", "Next run"]}
          >
            {watches.map((watch) => (
              <tr key={watch.id} className="border-t border-line align-top">
                <td className="min-w-52 px-4 py-3">
                  <Link
                    to={watchPath(watch.id)}
                    className="font-semibold break-all text-brand underline underline-offset-2"
                  >
                    {watch.url}
                  </Link>
                </td>
                <td className="px-4 py-3">{checksText(watch.checks)}</td>
                <td className="px-4 py-3 whitespace-nowrap">{everyText(watch.every)}</td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {whenText(watch.lastRunAt)}
                  {watch.latestRun?.securityGrade ? ` · grade ${watch.latestRun.securityGrade}` : ""}
                </td>
                <td className="px-4 py-3">
                  {watch.paused
                    ? "Paused"
                    : watch.lastStatus
                      ? RUN_STATUS_TEXT[watch.lastStatus]
                      : "Waiting for its first run"}
                </td>
                <td
                  className={`px-4 py-3 tabular-nums ${watch.openAlerts > 0 ? "font-bold text-danger" : ""}`}
                >
                  {watch.openAlerts}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {watch.paused ? "—" : whenText(watch.nextRunAt)}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>

      <SectionCard id="add-watch-heading" title="Watch a site">
        <div className="mt-4">
          <WatchForm
            key={error ? "retry" : `form-${watches.length}`}
            action={WATCHES_PATH}
            intent="create"
            idPrefix="watch"
            available={checks}
            values={
              error?.values ?? {
                url: "",
                checks: ["security", "performance"],
                every: "daily",
                recipients: defaultRecipients,
              }
            }
            errors={error?.errors}
            submitLabel="Add watch"
          />
        </div>
      </SectionCard>
    </div>
  );
}
