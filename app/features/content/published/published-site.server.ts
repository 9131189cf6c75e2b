import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { formatDisplayDate } from "#app/lib/site/display-date.ts";
import { countWords } from "../blog-parser.ts";
import { mediaIdsIn, type PostImage } from "../posts/post-markdown.ts";
import { type BodyRender, renderPostBody } from "../posts/post-markdown-worker.server.ts";
import { findPublicPost, nextScheduledAt, readPostsVersion } from "../posts/post-publishing.server.ts";
import { asCategory, type Post, parseTags } from "../posts/post-rows.server.ts";
import {
  londonDate,
  type PublicArticle,
  type PublicArticlePage,
  type PublicCover,
  type PublicPressItem,
  readTimeOf,
} from "./public-posts.ts";

// The site as readers see it at this moment (issue 24): which posts are published, each article's
// page, the old addresses that moved and the ones that are gone. Every instance keeps its own view
// and checks the database once a second (one indexed row: the posts version); a change, or the
// moment a scheduled post comes due (no write happens then), starts a new generation. The public
// pages render from the current generation, and the server keeps each page it rendered until the
// generation changes (server/published-pages.ts): so a publish, an unpublish or a schedule reaches
// every instance within about a second, without a build or a restart. The instance that made the
// change checks at once (`refresh`), before it answers: its own pages show it as the call returns.

export type PublishedSiteOptions = {
  db: Kysely<Database>;
  /** A media library image by id (the covers and body images). */
  image(id: number): Promise<PostImage | undefined>;
  now?: () => Date;
  /** How often the version is checked; also the longest a reader can see the previous state. */
  pollMs?: number;
  logger?: { error(message: string): void };
  /** A body to HTML, off the event loop (post-markdown-worker.server.ts). */
  renderBody?: (markdown: string, images: ReadonlyMap<number, PostImage>) => Promise<BodyRender>;
};

export type SiteListing = { articles: PublicArticle[]; press: PublicPressItem[]; newestDate: string | null };

export type ArticleLookup =
  | { kind: "article"; page: PublicArticlePage }
  /** An old address: 301 to /blog/<slug>. */
  | { kind: "moved"; slug: string }
  /** Readers saw it, and it was unpublished: 410. */
  | { kind: "gone" }
  | { kind: "none" };

/**
 * When the words last changed: the last save after the first revision (publishing is not an edit),
 * else the day it was first published (an imported file keeps its own date).
 */
function modifiedAt(revision: number, updatedAt: string, firstPublishedAt: string | null): string {
  return revision > 1 || !firstPublishedAt ? updatedAt : firstPublishedAt;
}

/** At most this many article lookups are kept per generation (a crawler inventing slugs cannot grow it). */
const MAX_LOOKUPS = 2_000;

export function createPublishedSite({
  db,
  image,
  now = () => new Date(),
  pollMs = 1_000,
  logger = { error: () => {} },
  renderBody = renderPostBody,
}: PublishedSiteOptions) {
  let generation = 0;
  let known: { version: number; nextDue: number | null } | null = null;
  let lastCheck = Number.NEGATIVE_INFINITY;
  let checking: Promise<void> | null = null;
  let listing: Promise<SiteListing> | null = null;
  let lookups = new Map<string, Promise<ArticleLookup>>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const listeners = new Set<(generation: number) => void>();

  const newGeneration = () => {
    generation++;
    listing = null;
    lookups = new Map();
    for (const listener of listeners) listener(generation);
  };

  /** Reads the version (and, when it moved, the next due time); a new generation when either says so. */
  async function check(): Promise<void> {
    const at = now();
    lastCheck = at.getTime();
    const { version } = await readPostsVersion(db);
    const due = known?.nextDue !== null && known?.nextDue !== undefined && known.nextDue <= at.getTime();
    if (known && known.version === version && !due) return;
    const next = await nextScheduledAt(db, at);
    known = { version, nextDue: next === null ? null : Date.parse(next) };
    newGeneration();
  }

  /** One check at a time; callers within `pollMs` of the last one share its result. */
  function checkNow(): Promise<void> {
    checking ??= check().finally(() => {
      checking = null;
    });
    return checking;
  }

  /** Fresh enough to answer from: checked within the poll interval (the poller keeps it so). */
  async function current(): Promise<void> {
    if (known === null || now().getTime() - lastCheck >= pollMs) await checkNow();
  }

  async function cover(raw: string | null, alt: string): Promise<PublicCover | null> {
    if (!raw) return null;
    if (raw.startsWith("/")) return { kind: "file", src: raw, alt };
    const id = Number(raw);
    const found = Number.isSafeInteger(id) ? await image(id) : undefined;
    return found ? { kind: "media", image: found, alt: alt || found.alt } : null;
  }

  async function loadListing(): Promise<SiteListing> {
    const time = now().toISOString();
    const rows = await db
      .selectFrom("posts")
      .select([
        "kind",
        "slug",
        "title",
        "excerpt",
        "tags",
        "category",
        "author",
        "coverImage",
        "coverAlt",
        "seoTitle",
        "seoDescription",
        "outlet",
        "originalUrl",
        "featured",
        "note",
        "readTime",
        "firstPublishedAt",
        "publishAt",
        "changedAt",
        "updatedAt",
        "revision",
        sql<number>`length(body)`.as("bodyLength"),
      ])
      .where((eb) =>
        eb.or([
          eb("status", "=", "published"),
          eb.and([eb("status", "=", "scheduled"), eb("publishAt", "<=", time)]),
        ]),
      )
      .orderBy("firstPublishedAt", "desc")
      .orderBy("slug", "asc")
      .execute();
    const articles: PublicArticle[] = [];
    const press: PublicPressItem[] = [];
    for (const row of rows) {
      const publishedAt = row.firstPublishedAt ?? row.publishAt ?? row.changedAt;
      const date = londonDate(publishedAt);
      if (row.kind === "press") {
        press.push({
          slug: row.slug,
          title: row.title,
          excerpt: row.excerpt,
          date,
          displayDate: formatDisplayDate(date),
          publication: row.outlet,
          externalLink: row.originalUrl ?? "",
          isFeatured: Boolean(row.featured),
          cover: await cover(row.coverImage, row.coverAlt || row.outlet),
          note: row.note,
        });
        continue;
      }
      articles.push({
        slug: row.slug,
        title: row.title,
        excerpt: row.excerpt,
        date,
        displayDate: formatDisplayDate(date),
        publishedAt,
        modifiedAt: modifiedAt(Number(row.revision), row.updatedAt, row.firstPublishedAt),
        readTime: readTimeOf(row.readTime === null ? null : Number(row.readTime), Number(row.bodyLength)),
        category: asCategory(row.category),
        author: row.author,
        tags: parseTags(row.tags),
        // The list shows no covers: loaded with the article's page.
        cover: null,
        seoTitle: row.seoTitle,
        seoDescription: row.seoDescription,
      });
    }
    const newestDate = articles[0]?.date ?? null;
    return { articles, press, newestDate };
  }

  async function articlePage(post: Post): Promise<PublicArticlePage> {
    const images = new Map<number, PostImage>();
    for (const id of mediaIdsIn(post.body)) {
      const found = await image(id);
      if (found) images.set(id, found);
    }
    const publishedAt = post.firstPublishedAt ?? post.publishAt ?? post.changedAt;
    const date = londonDate(publishedAt);
    return {
      slug: post.slug,
      title: post.title,
      excerpt: post.excerpt,
      date,
      displayDate: formatDisplayDate(date),
      publishedAt,
      modifiedAt: modifiedAt(post.revision, post.updatedAt, post.firstPublishedAt),
      readTime: readTimeOf(post.readTime, post.body.length),
      category: post.category,
      author: post.author,
      tags: post.tags,
      cover: await cover(post.coverImage, post.coverAlt),
      seoTitle: post.seoTitle,
      seoDescription: post.seoDescription,
      html: (await renderBody(post.body, images)).html,
      wordCount: countWords(post.body),
    };
  }

  async function lookUp(slug: string): Promise<ArticleLookup> {
    const found = await findPublicPost(db, slug, now());
    if (found.kind === "moved")
      return found.post.kind === "article" ? { kind: "moved", slug: found.post.slug } : { kind: "gone" };
    if (found.kind !== "post") return { kind: found.kind };
    // A press item links out: it has no page of its own here.
    if (found.post.kind !== "article") return { kind: "none" };
    return { kind: "article", page: await articlePage(found.post) };
  }

  return {
    /** Bumped by every change readers can see; the page cache keys on it. */
    generation: () => generation,
    /** Called with the new generation (the server drops the pages it kept). */
    onChange(listener: (generation: number) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The published articles and press items, newest first. */
    async listing(): Promise<SiteListing> {
      await current();
      listing ??= loadListing().catch((error: unknown) => {
        listing = null;
        throw error;
      });
      return listing;
    },
    /** What /blog/<slug> shows now. */
    async article(slug: string): Promise<ArticleLookup> {
      await current();
      let lookup = lookups.get(slug);
      if (!lookup) {
        lookup = lookUp(slug).catch((error: unknown) => {
          lookups.delete(slug);
          throw error;
        });
        if (lookups.size < MAX_LOOKUPS) lookups.set(slug, lookup);
      }
      return lookup;
    },
    /**
     * Checks the database now, after a change this instance just committed (a publish, an
     * unpublish, a save): its answer to that call is sent only once its own blog, feed, sitemap and
     * article pages show the change. A check already under way may have read the version before the
     * commit, so this one starts after it. Never rejects: the poller tries again within `pollMs`.
     */
    async refresh(): Promise<void> {
      await checking?.catch(() => {});
      await checkNow().catch((error: Error) =>
        logger.error(`Checking the published posts failed: ${error.message}`),
      );
    },
    /** A post as its page would show it, whatever its status: the private preview link. */
    preview: (post: Post): Promise<PublicArticlePage> => articlePage(post),
    /** Checks the database every `pollMs` (every instance runs one; stopped at shutdown). */
    start(): void {
      if (timer) return;
      timer = setInterval(() => {
        checkNow().catch((error: Error) =>
          logger.error(`Checking the published posts failed: ${error.message}`),
        );
      }, pollMs);
      timer.unref();
      void checkNow().catch((error: Error) =>
        logger.error(`Checking the published posts failed: ${error.message}`),
      );
    },
    stop(): void {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

export type PublishedSite = ReturnType<typeof createPublishedSite>;
