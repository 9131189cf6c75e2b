import { Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Pagination } from "#app/components/back-office/pagination.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { loadPostList } from "#app/features/content/studio/post-list.server.ts";
import { listHref, POSTS_PER_PAGE, TRAFFIC_DAYS } from "#app/features/content/studio/post-list-query.ts";
import { CONTENT_PATH, NEW_POST_PATH } from "#app/features/content/studio/studio-paths.ts";
import { PostFilters, PostStatusViews, PostTable } from "#app/features/content/studio/ui/post-list.tsx";
import { StudioError } from "#app/features/content/studio/ui/studio-error.tsx";
import type { Route } from "./+types/content";

// Issue 24, the content studio: the site's articles and press items, for marketing and admin, with
// what each is doing now (draft, scheduled for a time, published, unpublished) and what each article
// brought in its last 30 days. Every filter is a link or a GET form: it works without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Content");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadPostList(request, context);
}

export default function Content({ loaderData }: Route.ComponentProps) {
  const { filters, posts, total, everything, page, pageCount, counts, deleted } = loaderData;
  const filtered = Boolean(filters.q || filters.kind || filters.status);
  return (
    <div className="mx-auto grid max-w-7xl grid-cols-1 gap-5 px-4 py-8 sm:px-6">
      <PageHeader
        title="Content"
        description={
          <>
            Articles and press items on the site. Write a draft, preview it, then publish it now or schedule
            it. Views and leads count the last {TRAFFIC_DAYS} days.
          </>
        }
        actions={
          <Button asChild>
            <Link to={NEW_POST_PATH}>New post</Link>
          </Button>
        }
      />

      {deleted ? <Banner tone="success">Draft deleted, with its revisions.</Banner> : null}

      {everything === 0 ? (
        <div className="rounded-xl border border-line bg-white px-6 py-14 text-center shadow-sm">
          <h2 className="text-xl font-semibold">No posts yet</h2>
          <p className="mx-auto mt-2 max-w-md leading-7 text-ink-muted">
            Articles you write here appear on the blog; press items link to the publication that covered you.
          </p>
          <Button asChild className="mt-6">
            <Link to={NEW_POST_PATH}>Write the first post</Link>
          </Button>
        </div>
      ) : (
        <>
          <div className="grid gap-3">
            <PostStatusViews filters={filters} counts={counts} />
            <PostFilters filters={filters} />
          </div>

          <p className="text-sm text-ink-muted" aria-live="polite">
            {total === 0
              ? null
              : `Showing ${(page - 1) * POSTS_PER_PAGE + 1}–${Math.min(page * POSTS_PER_PAGE, total)} of ${total.toLocaleString("en-GB")}`}
          </p>

          {posts.length === 0 ? (
            <div className="rounded-xl border border-line bg-white px-6 py-12 text-center shadow-sm">
              <h2 className="text-lg font-semibold">No posts match</h2>
              <p className="mt-2 text-ink-muted">
                {filtered
                  ? "Nothing has this status, kind or these words. Try fewer words, or show everything."
                  : "Nothing here yet."}
              </p>
              {filtered ? (
                <Link
                  to={CONTENT_PATH}
                  className="mt-4 inline-block font-semibold text-brand underline underline-offset-2"
                >
                  Show every post
                </Link>
              ) : null}
            </div>
          ) : (
            <PostTable posts={posts} />
          )}

          <Pagination page={page} pageCount={pageCount} hrefFor={(n) => listHref({ ...filters, page: n })} />
        </>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <StudioError
      error={error}
      notFound={{ title: "No such page of posts", text: "The list is shorter than that now." }}
      failed={{
        title: "The posts could not be shown",
        text: "Something went wrong while reading them. Your posts are safe; please try again in a moment.",
      }}
      back="Go to the first page"
    />
  );
}
