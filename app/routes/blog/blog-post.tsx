import { data, isRouteErrorResponse, Link, redirect } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { postsServices } from "#app/features/content/posts/posts-context.server.ts";
import { ArticleView, articleMeta } from "#app/features/content/published/article-page.tsx";
import type { Route } from "./+types/blog-post";

const NOT_FOUND_TITLE = "Article Not Found";
const NOT_FOUND_TEXT = "The article you're looking for doesn't exist.";
const GONE_TITLE = "Article Removed";
const GONE_TEXT = "This article is no longer published.";

export const meta: Route.MetaFunction = ({ loaderData, params }) => {
  const path = `/blog/${params.slug}`;
  if (!loaderData) {
    return getMeta({ title: NOT_FOUND_TITLE, description: NOT_FOUND_TEXT, path, noIndex: true });
  }
  return articleMeta(loaderData.article, path);
};

// The article as published in the content studio at this moment (issue 24): an old address sends
// readers on (301), an unpublished one says it is gone (410). The server keeps the rendered page
// until the published posts change.
export async function loader({ params, context }: Route.LoaderArgs) {
  const { site: published } = await postsServices(context);
  const found = await published.article(params.slug);
  if (found.kind === "moved") throw redirect(`/blog/${found.slug}`, 301);
  if (found.kind === "gone") throw data(null, { status: 410 });
  if (found.kind !== "article") throw data(null, { status: 404 });
  return { article: found.page };
}

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  return <ArticleView article={loaderData.article} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const gone = isRouteErrorResponse(error) && error.status === 410;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">
        {notFound ? NOT_FOUND_TITLE : gone ? GONE_TITLE : "Something went wrong"}
      </h1>
      <p className="mt-4 text-lg text-ink-muted">
        {notFound
          ? NOT_FOUND_TEXT
          : gone
            ? GONE_TEXT
            : "We couldn't load this article. Please try again in a moment."}
      </p>
      <Button asChild className="mt-10">
        <Link to="/blog">Back to Blog</Link>
      </Button>
    </section>
  );
}
