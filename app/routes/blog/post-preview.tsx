import { data, isRouteErrorResponse, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { postsServices } from "#app/features/content/posts/posts-context.server.ts";
import { ArticleView, articleMeta } from "#app/features/content/published/article-page.tsx";
import { formatDateTime } from "#app/lib/format-date.ts";
import type { Route } from "./+types/post-preview";

// A draft's private preview link (issue 24): the post as its page will show it, for whoever has the
// link (no sign-in, so it can be sent for review) until it expires. Never indexed (noindex in the
// page and the header), never cached, never counted as a page view (analytics' page-view rules).

// NOTE: the server already marks every page it renders per request "private, no-store".
const PRIVATE_HEADERS = { "X-Robots-Tag": "noindex, nofollow" };

export const meta: Route.MetaFunction = ({ loaderData, params }) => {
  const path = `/preview/${params.token}`;
  if (!loaderData) return getMeta({ title: "Preview link", description: "", path, noIndex: true });
  return articleMeta(loaderData.article, `/blog/${loaderData.article.slug}`, { noIndex: true });
};

/** On the page and on its "not found" alike: no cache keeps a draft, no search engine lists it. */
export function headers() {
  return PRIVATE_HEADERS;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { posts, site } = await postsServices(context);
  const check = posts.verifyPreview(params.token);
  if (!check.ok) throw data({ expired: check.reason === "expired" }, { status: 404 });
  const post = await posts.get(check.postId);
  if (!post) throw data({ expired: false }, { status: 404 });
  return {
    article: await site.preview(post),
    kind: post.kind,
    status: post.status,
    publishAt: post.publishAt,
    expiresAt: check.expiresAt,
    outlet: post.outlet,
    originalUrl: post.originalUrl,
  };
}

const STATUS_WORDS: Record<string, string> = {
  draft: "a draft",
  scheduled: "scheduled",
  published: "published",
  unpublished: "unpublished",
};

export default function PostPreview({ loaderData }: Route.ComponentProps) {
  const { article, status, publishAt, expiresAt, kind, outlet, originalUrl } = loaderData;
  const banner = (
    <aside
      aria-label="Preview"
      className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-center text-sm text-amber-950 sm:px-6"
    >
      <strong>Preview.</strong> This post is {STATUS_WORDS[status] ?? status}
      {status === "scheduled" && publishAt ? `, to appear on ${formatDateTime(publishAt)} (UK time)` : ""}.
      Only people with this link can see it, until {formatDateTime(expiresAt)}.
      {kind === "press" && originalUrl ? (
        <>
          {" "}
          On the blog it links to{" "}
          <a href={originalUrl} rel="noopener" className="font-semibold underline">
            {outlet || "the original article"}
          </a>
          .
        </>
      ) : null}
    </aside>
  );
  return <ArticleView article={article} preview={banner} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const expired =
    isRouteErrorResponse(error) && (error.data as { expired?: boolean } | null)?.expired === true;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">
        {expired ? "This preview link has expired" : "Preview not found"}
      </h1>
      <p className="mt-4 text-lg text-ink-muted">
        {expired
          ? "Ask for a new link: the content studio shows one on the post's page."
          : "This link does not open a post. It may have been copied incompletely, or the post was deleted."}
      </p>
      <Button asChild className="mt-10">
        <Link to="/blog">Go to the blog</Link>
      </Button>
    </section>
  );
}
