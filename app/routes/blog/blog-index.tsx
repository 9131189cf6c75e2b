import { data, Link, redirect } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { ResponsiveImage } from "#app/components/site/responsive-image.tsx";
import { Section } from "#app/components/site/section.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { postsServices } from "#app/features/content/posts/posts-context.server.ts";
import type { PublicArticle, PublicPressItem } from "#app/features/content/published/public-posts.ts";
import { absoluteUrl } from "#app/lib/site/public-url.ts";
import { site } from "#app/lib/site/site.ts";
import type { Route } from "./+types/blog-index";

/** Articles per page of the blog: the newest on /blog, older ones on /blog/page/2 and on. */
export const ARTICLES_PER_PAGE = 24;

const pagePath = (page: number) => (page === 1 ? "/blog" : `/blog/page/${page}`);

export const meta: Route.MetaFunction = ({ loaderData }) =>
  getMeta({
    title: loaderData && loaderData.page > 1 ? `Blog, page ${loaderData.page}` : "Blog",
    description: `Practical articles on construction contract management (JCT and NEC, variations, payment notices, retention) and press coverage of ${site.productName}.`,
    path: pagePath(loaderData?.page ?? 1),
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Blog",
        name: `${site.productName} Blog`,
        url: absoluteUrl("/blog"),
        publisher: { "@type": "Organization", name: site.company.legalName },
        blogPost: (loaderData?.articles ?? []).map((article) => ({
          "@type": "BlogPosting",
          headline: article.title,
          datePublished: article.date,
          url: absoluteUrl(`/blog/${article.slug}`),
        })),
      },
    ],
  });

// The posts come from the content studio (issue 24): what is published at this moment, on every
// instance (published-site.server.ts). The server keeps the rendered page until that changes.
// /blog shows the newest ARTICLES_PER_PAGE articles and the press coverage; /blog/page/2 and on, the
// older articles (this module serves both routes).
export async function loader({ context, params }: Route.LoaderArgs) {
  const raw = (params as { page?: string }).page;
  const page = raw === undefined ? 1 : Number(raw);
  if (raw !== undefined && page === 1) throw redirect("/blog", 301);
  const { site: published } = await postsServices(context);
  const { articles, press } = await published.listing();
  const pages = Math.max(1, Math.ceil(articles.length / ARTICLES_PER_PAGE));
  if (!Number.isSafeInteger(page) || page < 1 || page > pages) throw data(null, { status: 404 });
  const start = (page - 1) * ARTICLES_PER_PAGE;
  return {
    page,
    pages,
    articles: articles.slice(start, start + ARTICLES_PER_PAGE),
    press: page === 1 ? press : [],
  };
}

function Badge({ children, tone = "brand" }: { children: string; tone?: "brand" | "accent" }) {
  return (
    <span
      className={
        tone === "accent"
          ? "inline-flex rounded-full bg-accent px-3 py-1 text-xs font-semibold text-ink"
          : "inline-flex rounded-full bg-brand-soft px-3 py-1 text-xs font-semibold text-brand"
      }
    >
      {children}
    </span>
  );
}

function PressMark({ item }: { item: PublicPressItem }) {
  const cover = item.cover;
  if (cover?.kind === "media")
    return (
      <ResponsiveImage image={cover.image} alt={item.publication} sizes="320px" className="h-20 w-auto" />
    );
  if (!cover) return <span className="text-2xl font-bold text-brand">{item.publication}</span>;
  return (
    <img
      src={cover.src}
      alt={item.publication}
      width={320}
      height={120}
      loading="lazy"
      decoding="async"
      className="h-20 w-auto"
    />
  );
}

function PressCard({ item }: { item: PublicPressItem }) {
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl border border-line bg-white shadow-sm">
      <div className="flex items-center justify-center bg-surface-muted p-6">
        <PressMark item={item} />
      </div>
      <div className="flex flex-1 flex-col p-6">
        <div className="flex flex-wrap items-center gap-3 text-sm text-ink-muted">
          {item.isFeatured ? <Badge tone="accent">Featured</Badge> : null}
          <span className="font-semibold text-ink">{item.publication}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={item.date}>{item.displayDate}</time>
        </div>
        <h3 className="mt-4 text-xl leading-7 font-semibold text-brand">{item.title}</h3>
        <p className="mt-3 flex-1 leading-7 text-ink-muted">{item.excerpt}</p>
        {item.note ? (
          <p className="mt-4 inline-flex w-fit rounded-md bg-brand-soft px-3 py-1 text-sm font-semibold text-brand">
            {item.note}
          </p>
        ) : null}
        <a
          href={item.externalLink}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-6 inline-flex items-center gap-1 font-semibold text-brand underline-offset-4 hover:underline"
        >
          Read in {item.publication}
          <span className="sr-only"> (opens in a new tab)</span>
          <span aria-hidden="true">↗</span>
        </a>
      </div>
    </article>
  );
}

function ArticleCard({ article }: { article: PublicArticle }) {
  return (
    <article className="relative flex h-full flex-col rounded-xl border border-line bg-white p-6 shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md">
      <div>
        <Badge>{article.category}</Badge>
      </div>
      <p className="mt-3 flex flex-wrap items-center gap-x-2 text-sm text-ink-muted">
        <time dateTime={article.date}>{article.displayDate}</time>
        <span aria-hidden="true">·</span>
        <span>{article.readTime} min read</span>
      </p>
      <h3 className="mt-3 text-xl leading-7 font-semibold">
        {/* The title's link covers the whole card, so the card is one target with one accessible name. */}
        <Link
          to={`/blog/${article.slug}`}
          className="text-brand after:absolute after:inset-0 after:rounded-xl hover:underline"
        >
          {article.title}
        </Link>
      </h3>
      <p className="mt-3 flex-1 leading-7 text-ink-muted">{article.excerpt}</p>
      <span aria-hidden="true" className="mt-6 font-semibold text-brand">
        Read article →
      </span>
    </article>
  );
}

function Pagination({ page, pages }: { page: number; pages: number }) {
  if (pages === 1) return null;
  const link = "inline-flex items-center gap-2 font-semibold text-brand underline-offset-4 hover:underline";
  return (
    <nav aria-label="Older and newer articles" className="mt-10 flex items-center justify-between gap-4">
      {page > 1 ? (
        <Link to={pagePath(page - 1)} className={link}>
          <span aria-hidden="true">←</span> Newer articles
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-ink-muted">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={pagePath(page + 1)} className={link}>
          Older articles <span aria-hidden="true">→</span>
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

export default function BlogIndex({ loaderData }: Route.ComponentProps) {
  const { articles, press, page, pages } = loaderData;
  return (
    <>
      <PageHero
        breadcrumb={[{ label: "Home", to: "/" }, { label: "Blog" }]}
        eyebrow="Blog and press"
        title="Insights on Construction Contract Management"
        intro={`Practical guidance on JCT and NEC contracts, variations, payment notices and retention for UK construction businesses, and what the trade press is saying about ${site.productName}.`}
      />

      {press.length > 0 ? (
        <Section id="press" title="Featured Press Coverage">
          <ul className="grid gap-6 md:grid-cols-2">
            {press.map((item) => (
              <li key={item.slug}>
                <PressCard item={item} />
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <Section
        id="articles"
        muted
        title="Latest Articles"
        intro="Where margin leaks out of construction contracts after signature, and how to keep it."
      >
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {articles.map((article) => (
            <li key={article.slug}>
              <ArticleCard article={article} />
            </li>
          ))}
        </ul>
        <Pagination page={page} pages={pages} />

        <aside
          aria-labelledby="stay-updated"
          className="mt-12 flex flex-col items-start gap-6 rounded-2xl bg-brand-strong p-8 text-white md:flex-row md:items-center md:justify-between md:p-10"
        >
          <div>
            <h2 id="stay-updated" className="text-2xl font-bold">
              Stay Updated
            </h2>
            <p className="mt-2 max-w-2xl text-slate-200">
              Request a demo to see {site.productName} on your own contracts, and we will keep you posted on
              new articles and product releases. Prefer a feed reader?{" "}
              <a href="/rss.xml" className="font-semibold text-white underline underline-offset-2">
                Subscribe by RSS
              </a>
              .
            </p>
          </div>
          <Button asChild variant="accent" size="lg">
            {/* NOTE: /demo-request is a redirect-only resource route, so it needs a full document request. */}
            <Link to="/demo-request" reloadDocument>
              Request a Demo
            </Link>
          </Button>
        </aside>
      </Section>
    </>
  );
}
