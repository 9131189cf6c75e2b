import { data, isRouteErrorResponse, Link } from "react-router";
import { Breadcrumb } from "#app/components/site/breadcrumb.tsx";
import { RelatedPages } from "#app/components/site/related-pages.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getArticle } from "#app/features/content/blog.server.ts";
import { getMeta, OG_IMAGE_PATH } from "#app/features/content/meta.ts";
import { ShareCard } from "#app/features/content/share-card.tsx";
import { absoluteUrl, publicUrl } from "#app/lib/site/public-url.ts";
import { site } from "#app/lib/site/site.ts";
import type { Route } from "./+types/blog-post";

const NOT_FOUND_TITLE = "Article Not Found";
const NOT_FOUND_TEXT = "The article you're looking for doesn't exist.";

export const meta: Route.MetaFunction = ({ loaderData, params }) => {
  const path = `/blog/${params.slug}`;
  if (!loaderData) {
    return getMeta({ title: NOT_FOUND_TITLE, description: NOT_FOUND_TEXT, path, noIndex: true });
  }
  const { article } = loaderData;
  const url = absoluteUrl(path);
  const organization = {
    "@type": "Organization",
    name: site.company.legalName,
    url: `${publicUrl}/`,
    logo: { "@type": "ImageObject", url: absoluteUrl("/logo.svg") },
  };
  return getMeta({
    title: article.title,
    description: article.excerpt,
    path,
    type: "article",
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Article",
        headline: article.title,
        description: article.excerpt,
        datePublished: article.date,
        dateModified: article.date,
        articleSection: article.category,
        wordCount: article.wordCount,
        inLanguage: "en-GB",
        image: absoluteUrl(OG_IMAGE_PATH),
        author: organization,
        publisher: organization,
        mainEntityOfPage: { "@type": "WebPage", "@id": url },
        url,
      },
    ],
  });
};

export function loader({ params }: Route.LoaderArgs) {
  const article = getArticle(params.slug);
  if (!article) throw data(null, { status: 404 });
  return { article };
}

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { article } = loaderData;
  const url = absoluteUrl(`/blog/${article.slug}`);
  return (
    <>
      <article>
        <header className="bg-brand text-white">
          <div className="mx-auto max-w-3xl px-4 py-14 sm:px-6 md:py-20">
            <Breadcrumb
              items={[{ label: "Home", to: "/" }, { label: "Blog", to: "/blog" }, { label: article.title }]}
            />
            <div className="mt-8 flex flex-wrap items-center gap-3 text-sm text-slate-100">
              <span className="inline-flex rounded-full bg-accent px-3 py-1 text-xs font-semibold text-ink">
                {article.category}
              </span>
              <time dateTime={article.date}>{article.displayDate}</time>
              <span aria-hidden="true">·</span>
              <span>{article.readTime} min read</span>
            </div>
            <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance md:text-5xl">
              {article.title}
            </h1>
            <p className="mt-6 text-lg leading-8 text-slate-100">{article.excerpt}</p>
          </div>
        </header>

        <div className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
          {/* Our own markdown, rendered at build time with raw HTML escaped (blog-parser.ts). */}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: trusted, escaped markdown output. */}
          <div className="prose-body" dangerouslySetInnerHTML={{ __html: article.html }} />

          <div className="mt-14 rounded-2xl bg-brand-soft p-8">
            <p className="text-xl font-bold text-brand">Put your own contracts to the test</p>
            <p className="mt-2 leading-7 text-ink">
              {site.productName} consolidates every amendment into one current version, explains it in plain
              language and tracks each notice, payment date and retention release.
            </p>
            <Button asChild size="lg" className="mt-6">
              <Link to="/demo">{`See How ${site.productName} Can Help`}</Link>
            </Button>
          </div>

          <div className="mt-10">
            <ShareCard url={url} title={article.title} excerpt={article.excerpt} />
          </div>

          <p className="mt-10">
            <Link
              to="/blog"
              className="inline-flex items-center gap-2 font-semibold text-brand underline-offset-4 hover:underline"
            >
              <span aria-hidden="true">←</span> Back to Blog
            </Link>
          </p>
        </div>
      </article>
      <RelatedPages currentPath="/blog" />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">
        {notFound ? NOT_FOUND_TITLE : "Something went wrong"}
      </h1>
      <p className="mt-4 text-lg text-ink-muted">
        {notFound ? NOT_FOUND_TEXT : "We couldn't load this article. Please try again in a moment."}
      </p>
      <Button asChild className="mt-10">
        <Link to="/blog">Back to Blog</Link>
      </Button>
    </section>
  );
}
