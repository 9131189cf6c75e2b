import { Form, Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { AlertList } from "#app/features/audits/watches/ui/alert-list.tsx";
import { RunResults } from "#app/features/audits/watches/ui/run-results.tsx";
import { WatchForm } from "#app/features/audits/watches/ui/watch-form.tsx";
import { checksText, everyText, whenText } from "#app/features/audits/watches/ui/watch-format.ts";
import { WatchTrends } from "#app/features/audits/watches/ui/watch-trends.tsx";
import { loadWatchPage, watchFormAction } from "#app/features/audits/watches/watch-page.server.ts";
import { WATCH_NOTICES, WATCHES_PATH, watchPath } from "#app/features/audits/watches/watch-paths.ts";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import type { Route } from "./+types/watch";

// Issue 25: one watched site. Its latest results (or the run opened from the table), the trend of
// its numbers as charts with a table of the same numbers, its alerts, and its settings. Run now,
// pause, resume and delete are forms that work without JavaScript.

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData ? `Watch: ${new URL(loaderData.watch.url).host}` : "Watch");

/** A busy answer (503) from "Run now" tells the browser when to try again. */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const merged = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) merged.set("Retry-After", retryAfter);
  return merged;
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadWatchPage(request, context, params.id);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  return watchFormAction(request, context, params.id);
}

export default function WatchPage({ loaderData, actionData }: Route.ComponentProps) {
  const { watch, shown, latestRun, runs, alerts, checks, notice, confirmDelete } = loaderData;
  const running = usePendingIntent("run");
  const formError = actionData?.kind === "error" ? actionData : null;
  const refused = actionData?.kind === "refused" ? actionData : null;
  const page = watchPath(watch.id);
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6">
      <Link to={WATCHES_PATH} className="self-start font-semibold text-brand underline underline-offset-2">
        <span aria-hidden="true">← </span>All watches
      </Link>
      <PageHeader
        title={<span className="break-all">{watch.url}</span>}
        description={
          <>
            {checksText(watch.checks)} · {everyText(watch.every).toLowerCase()} ·{" "}
            {watch.paused ? "paused" : `next run ${whenText(watch.nextRunAt)}`} · alerts to{" "}
            {watch.recipients.join(", ")}
          </>
        }
        actions={
          <>
            <Form method="post" action={page}>
              <input type="hidden" name="intent" value="run" />
              <Button type="submit" disabled={running}>
                {running ? "Running…" : "Run now"}
              </Button>
            </Form>
            <Form method="post" action={page}>
              <input type="hidden" name="intent" value={watch.paused ? "resume" : "pause"} />
              <Button type="submit" variant="outline">
                {watch.paused ? "Resume" : "Pause"}
              </Button>
            </Form>
            <Button asChild variant="ghost">
              <Link to={`${page}?delete=confirm#delete`}>Delete</Link>
            </Button>
          </>
        }
      />
      {notice && !actionData ? <Banner tone="success">{WATCH_NOTICES[notice]}</Banner> : null}
      {refused ? <Banner tone="error">{refused.message}</Banner> : null}
      {confirmDelete ? (
        <div id="delete">
          <Banner tone="error">
            <p className="font-semibold">Delete this watch with its {runs.length} runs and its alerts?</p>
            <div className="mt-3 flex flex-wrap gap-3">
              <Form method="post" action={page}>
                <input type="hidden" name="intent" value="delete" />
                <Button type="submit" variant="danger">
                  Delete watch
                </Button>
              </Form>
              <Button asChild variant="outline">
                <Link to={page}>Keep it</Link>
              </Button>
            </div>
          </Banner>
        </div>
      ) : null}

      <section
        id="run"
        aria-labelledby="results-heading"
        className="rounded-xl border border-line bg-white p-6 shadow-sm"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="results-heading" className="text-xl font-semibold">
            {shown && latestRun && shown.id !== latestRun.id ? `Run ${shown.id}` : "Latest results"}
          </h2>
          {shown && latestRun && shown.id !== latestRun.id ? (
            <Link to={page} className="text-sm font-semibold text-brand underline underline-offset-2">
              Back to the latest run
            </Link>
          ) : null}
        </div>
        <div className="mt-4">
          {shown ? (
            <RunResults run={shown} />
          ) : (
            <p className="text-ink-muted">
              No run yet. The first runs at {whenText(watch.nextRunAt)}, or press “Run now”.
            </p>
          )}
        </div>
      </section>

      <section aria-labelledby="trend-heading" className="flex flex-col gap-4">
        <h2 id="trend-heading" className="text-2xl font-bold tracking-tight">
          Trend
        </h2>
        {runs.length === 0 ? (
          <p className="text-ink-muted">The trend starts with the first run.</p>
        ) : (
          <WatchTrends watchId={watch.id} checks={watch.checks} runs={runs} />
        )}
      </section>

      <section aria-labelledby="alerts-heading" className="flex flex-col gap-4">
        <h2 id="alerts-heading" className="text-2xl font-bold tracking-tight">
          Alerts
        </h2>
        {alerts.length === 0 ? (
          <p className="text-ink-muted">No alerts so far.</p>
        ) : (
          <AlertList alerts={alerts} />
        )}
      </section>

      <SectionCard id="settings-heading" title="Settings">
        <div className="mt-4">
          <WatchForm
            key={formError ? "retry" : watch.updatedAt}
            action={page}
            intent="update"
            idPrefix="edit"
            available={checks}
            values={
              formError?.values ?? {
                url: watch.url,
                checks: watch.checks,
                every: watch.every,
                recipients: watch.recipients.join(", "),
              }
            }
            errors={formError?.errors}
            submitLabel="Save changes"
          />
        </div>
      </SectionCard>
    </div>
  );
}
