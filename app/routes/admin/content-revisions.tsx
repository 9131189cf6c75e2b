import { Form, Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import {
  loadRevisionsPage,
  type RevisionsActionData,
  revisionsPageAction,
} from "#app/features/content/studio/post-revisions-page.server.ts";
import { CONTENT_PATH, editorPath, revisionsPath } from "#app/features/content/studio/studio-paths.ts";
import { PostDiffView } from "#app/features/content/studio/ui/diff-view.tsx";
import { StudioError } from "#app/features/content/studio/ui/studio-error.tsx";
import { requirePermission } from "#app/lib/admin-guard.server.ts";
import { cn } from "#app/lib/cn.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import type { Route } from "./+types/content-revisions";

// Issue 24: a post's revisions. Every save is kept (a run of one person's autosaves as its last
// state): who saved, when and how; two chosen and compared (the fields that changed, the text line
// by line); one restored, after a confirmation, as a new revision (so a restore can be undone too).

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData ? `Revisions: ${loaderData.post.title}` : "Post not found");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadRevisionsPage(request, context, params.id);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  return revisionsPageAction(request, context, params.id, requirePermission(context, "content.publish"));
}

export default function ContentRevisions({ loaderData, actionData }: Route.ComponentProps) {
  const { post, revisions, more, compare, diff, restoring } = loaderData;
  const failure = actionData as RevisionsActionData | undefined;
  const restoringNow = usePendingIntent("restore");
  const here = revisionsPath(post.id);
  const compared = (n: number) => n === compare.from || n === compare.to;
  return (
    <div className="mx-auto grid max-w-6xl grid-cols-1 gap-6 px-4 py-8 sm:px-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <ol className="flex flex-wrap items-center gap-2 text-ink-muted">
          <li>
            <Link to={CONTENT_PATH} className="font-semibold text-brand underline-offset-2 hover:underline">
              Content
            </Link>
          </li>
          <li aria-hidden="true">›</li>
          <li className="min-w-0">
            <Link
              to={editorPath(post.id)}
              className="font-semibold break-words text-brand underline-offset-2 hover:underline"
            >
              {post.title}
            </Link>
          </li>
        </ol>
      </nav>
      <PageHeader
        title="Revisions"
        description="Every save of this post, newest first. Choose two to see what changed between them, or bring an earlier one back."
      />

      {failure ? <Banner tone="error">{failure.message}</Banner> : null}

      {restoring ? (
        <section
          aria-labelledby="restore-title"
          className="grid gap-3 rounded-xl border border-accent bg-amber-50 p-4 sm:p-6"
        >
          <h2 id="restore-title" className="text-lg font-semibold">
            Restore revision {restoring.revision}?
          </h2>
          <p className="leading-7">
            Its fields ({restoring.what.toLowerCase()}, {restoring.when}) become the post's again, saved as a
            new revision {post.revision + 1}. The address stays /blog/{post.slug}.
            {post.status === "published"
              ? " The post is live: readers see the restored version at once."
              : ""}{" "}
            Nothing is lost: the current version stays in the list.
          </p>
          <Form method="post" action={here} className="flex flex-wrap gap-3">
            <input type="hidden" name="revision" value={restoring.revision} />
            <input type="hidden" name="current" value={post.revision} />
            <Button type="submit" name="intent" value="restore">
              {restoringNow ? "Restoring…" : `Restore revision ${restoring.revision}`}
            </Button>
            <Button asChild variant="outline">
              <Link to={`${here}?from=${compare.from ?? ""}&to=${compare.to ?? ""}`}>Cancel</Link>
            </Button>
          </Form>
        </section>
      ) : null}

      <Form method="get" action={here} className="grid gap-4">
        <div className="overflow-hidden rounded-xl border border-line bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Revisions, newest first</caption>
            <thead className="border-b border-line bg-surface-muted">
              <tr>
                <th scope="col" className="w-16 px-2 py-3 text-center font-semibold sm:px-3">
                  From
                </th>
                <th scope="col" className="w-16 px-2 py-3 text-center font-semibold sm:px-3">
                  To
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Revision
                </th>
                <th scope="col" className="hidden px-3 py-3 font-semibold md:table-cell">
                  Title then
                </th>
                <th scope="col" className="hidden px-3 py-3 text-right font-semibold sm:table-cell">
                  <span className="sr-only">Restore</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {revisions.map((revision) => (
                <tr
                  key={revision.revision}
                  data-revision={revision.revision}
                  className={cn("align-top", compared(revision.revision) && "bg-brand-soft/50")}
                >
                  <td className="px-2 py-3 text-center sm:px-3">
                    <input
                      type="radio"
                      name="from"
                      value={revision.revision}
                      defaultChecked={revision.revision === compare.from}
                      aria-label={`Compare from revision ${revision.revision}`}
                      className="size-5"
                    />
                  </td>
                  <td className="px-2 py-3 text-center sm:px-3">
                    <input
                      type="radio"
                      name="to"
                      value={revision.revision}
                      defaultChecked={revision.revision === compare.to}
                      aria-label={`Compare to revision ${revision.revision}`}
                      className="size-5"
                    />
                  </td>
                  <td className="px-3 py-3">
                    <p className="font-semibold">
                      {revision.revision}. {revision.what}
                      {revision.current ? (
                        <span className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">
                          Current
                        </span>
                      ) : null}
                    </p>
                    <p className="text-ink-muted">
                      by <span className="font-semibold text-ink">{revision.by}</span>,{" "}
                      <time dateTime={revision.savedAt}>{revision.when}</time>
                    </p>
                    <p className="mt-1 break-words md:hidden">{revision.title}</p>
                    {revision.current ? null : (
                      <RestoreLink
                        here={here}
                        compare={compare}
                        revision={revision.revision}
                        className="mt-1 inline-block sm:hidden"
                      />
                    )}
                  </td>
                  <td className="hidden px-3 py-3 break-words md:table-cell">{revision.title}</td>
                  <td className="hidden px-3 py-3 text-right sm:table-cell">
                    {revision.current ? null : (
                      <RestoreLink here={here} compare={compare} revision={revision.revision} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {more ? <p className="text-sm text-ink-muted">Showing the newest 100 revisions.</p> : null}
        <div>
          <Button type="submit" variant="outline">
            Compare the chosen two
          </Button>
        </div>
      </Form>

      <section aria-labelledby="differences-title" className="grid gap-3">
        <h2 id="differences-title" className="text-xl font-semibold">
          {compare.from !== null && compare.to !== null && compare.from !== compare.to
            ? `What changed from revision ${compare.from} to ${compare.to}`
            : "What changed"}
        </h2>
        {diff ? (
          <PostDiffView
            diff={diff}
            beforeLabel={`Revision ${diff.from}`}
            afterLabel={`Revision ${diff.to}`}
          />
        ) : (
          <p className="text-ink-muted">
            {revisions.length < 2
              ? "There is only one revision so far: the next save makes a second to compare with."
              : "Choose two different revisions above, then Compare."}
          </p>
        )}
      </section>
    </div>
  );
}

/** The first step of a restore: this page again, asking to confirm (the same with and without JavaScript). */
function RestoreLink({
  here,
  compare,
  revision,
  className,
}: {
  here: string;
  compare: { from: number | null; to: number | null };
  revision: number;
  className?: string;
}) {
  return (
    <Link
      to={`${here}?from=${compare.from ?? ""}&to=${compare.to ?? ""}&restore=${revision}`}
      className={cn("font-semibold whitespace-nowrap text-brand underline underline-offset-2", className)}
      aria-label={`Restore revision ${revision}`}
    >
      Restore…
    </Link>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <StudioError
      error={error}
      notFound={{ title: "Post not found", text: "There is no post or revision with this number." }}
      failed={{
        title: "Something went wrong",
        text: "The revisions could not be shown. Please try again in a moment.",
      }}
    />
  );
}
