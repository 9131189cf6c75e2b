import type { ReactNode } from "react";
import { Link } from "react-router";
import { Breadcrumb } from "#app/components/site/breadcrumb.tsx";
import { RelatedPages } from "#app/components/site/related-pages.tsx";
import { ResponsiveImage } from "#app/components/site/responsive-image.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { absoluteUrl, publicUrl } from "#app/lib/site/public-url.ts";
import { site } from "#app/lib/site/site.ts";
import { getMeta, OG_IMAGE_PATH } from "../meta.ts";
import { ShareCard } from "../share-card.tsx";
import type { PublicArticlePage } from "./public-posts.ts";

// An article's page as readers see it (issue 24): the published page (routes/blog/blog-post.tsx) and
// a draft's preview link (routes/blog/post-preview.tsx) draw the same thing.

/** Canonical, Open Graph and JSON-LD `Article` of an article's page (also its preview's, unindexed). */
export function articleMeta(article: PublicArticlePage, path: string, { noIndex = false } = {}) {
  const url = absoluteUrl(path);
  const organization = {
    "@type": "Organization",
    name: site.company.legalName,
    url: `${publicUrl}/`,
    logo: { "@type": "ImageObject", url: absoluteUrl("/logo.svg") },
  };
  const cover =
    article.cover?.kind === "media"
      ? [...article.cover.image.variants]
          .filter((variant) => variant.format === "jpeg" || variant.format === "png")
          .sort((a, b) => b.width - a.width)[0]?.url
      : undefined;
  return getMeta({
    title: article.seoTitle || article.title,
    description: article.seoDescription || article.excerpt,
    path,
    type: "article",
    noIndex,
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Article",
        headline: article.title,
        description: article.excerpt,
        datePublished: article.date,
        dateModified: article.modifiedAt.slice(0, 10),
        articleSection: article.category,
        wordCount: article.wordCount,
        inLanguage: "en-GB",
        image: absoluteUrl(cover ?? OG_IMAGE_PATH),
        author: article.author ? { "@type": "Person", name: article.author } : organization,
        publisher: organization,
        mainEntityOfPage: { "@type": "WebPage", "@id": url },
        url,
      },
    ],
  });
}

/** An article's page; the preview link shows a draft with it too. */
export function ArticleView({ article, preview }: { article: PublicArticlePage; preview?: ReactNode }) {
  const url = absoluteUrl(`/blog/${article.slug}`);
  return (
    <>
      {preview}
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
              {article.author ? (
                <>
                  <span aria-hidden="true">·</span>
                  <span>By {article.author}</span>
                </>
              ) : null}
            </div>
            <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance md:text-5xl">
              {article.title}
            </h1>
            <p className="mt-6 text-lg leading-8 text-slate-100">{article.excerpt}</p>
          </div>
        </header>

        <div className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
          {article.cover ? (
            <figure className="mb-10 overflow-hidden rounded-xl">
              {article.cover.kind === "media" ? (
                <ResponsiveImage
                  image={article.cover.image}
                  alt={article.cover.alt}
                  sizes="(min-width: 768px) 720px, 100vw"
                  loading="eager"
                  fetchPriority="high"
                  className="w-full"
                />
              ) : (
                <img src={article.cover.src} alt={article.cover.alt} className="h-auto w-full" />
              )}
            </figure>
          ) : null}
          {/* The author's markdown, rendered by post-markdown.ts: raw HTML escaped, unsafe links dropped. */}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: escaped markdown output (post-markdown.ts). */}
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
