import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { isPublishedPath } from "../app/features/content/public-paths.ts";
import { REVALIDATE } from "./cache-control.ts";
import { inlineScriptHashes } from "./page-javascript.ts";
import { type PageCookie, type PreparedFile, prepareFile, sendPrepared } from "./static-files.ts";

// The pages the content studio publishes (issue 24): /blog, each /blog/<slug>, /rss.xml and
// /sitemap.xml. They are rendered from the database, so the build cannot prerender them; instead
// the server renders each one once, the first time it is asked for after the published posts
// changed, and then serves it as it serves a prerendered page: from memory, precompressed (quickly
// for the readers waiting on the render, then again at the build's levels in the background),
// with its stylesheet cut to what it uses (page-css.ts, in a worker) and a CSP that allows its
// inline scripts by hash. Each instance keeps its own copies and drops them all when the published
// posts change (published-site.server.ts: checked every second), so a publish shows everywhere
// within seconds and costs one render per page per instance.

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Flavours = { plain: PreparedFile; https: PreparedFile };
type Kept = { generation: number; files: Flavours };

export type PublishedPagesOptions = {
  /** The page as the app renders it now (React Router's handler, without a nonce: hashes instead). */
  render(path: string): Promise<Response>;
  /** The published posts' generation: a page rendered for an older one is not served. */
  generation(): number;
  /** Called with each new generation: the list pages kept before are rendered again at once. */
  onChange?(listener: () => void): void;
  /** The stylesheet cut of page-css.ts, off the event loop. */
  cutCss(html: string, path: string): Promise<string>;
  baseHeaders: { plain: Record<string, string>; https: Record<string, string> };
  pageCookie: { plain: PageCookie; https: PageCookie };
  logger?: { error(message: string): void };
};

/** At most this many pages are kept (1,000 posts and the list, feed and sitemap fit). */
const MAX_PAGES = 5_000;

export function createPublishedPages({
  render,
  generation,
  onChange,
  cutCss,
  baseHeaders,
  pageCookie,
  logger = { error: () => {} },
}: PublishedPagesOptions) {
  const kept = new Map<string, Kept>();
  const rendering = new Map<string, Promise<boolean>>();

  type Page = {
    body: Buffer;
    entry: { contentType: string; cacheControl: string; etag: string; scriptHashes?: string[] };
  };

  async function readPage(path: string, response: Response): Promise<Page> {
    const contentType = response.headers.get("content-type") ?? "";
    const html = contentType.startsWith("text/html");
    let text = await response.text();
    if (html) text = await cutCss(text, path);
    const body = Buffer.from(text, "utf8");
    return {
      body,
      entry: {
        contentType,
        // Any of them can change with the next publish: always revalidated, by ETag.
        cacheControl: REVALIDATE,
        etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
        scriptHashes: html ? inlineScriptHashes(text) : undefined,
      },
    };
  }

  /**
   * The page with its compressed bodies: `fast` (brotli 5, gzip 6: a few ms) for the readers waiting
   * on a fresh render, or the build's best (brotli 11, gzip 9: ~200 ms for a 120 KB page, several
   * times that on a busy machine) for everyone after them. Same bytes once decompressed, same ETag.
   */
  async function compressed({ body, entry }: Page, fast: boolean): Promise<Flavours> {
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: fast ? 5 : constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzipAsync(body, { level: fast ? 6 : constants.Z_BEST_COMPRESSION }),
    ]);
    const bodies = {
      identity: body,
      br: br.length < body.length * 0.95 ? br : undefined,
      gzip: gz.length < body.length * 0.95 ? gz : undefined,
    };
    return {
      plain: prepareFile(entry, bodies, baseHeaders.plain, false),
      https: prepareFile(entry, bodies, baseHeaders.https, true),
    };
  }

  // The best compression of each kept page, done after it is first served, one page at a time.
  // One entry per path: a newer render replaces an older one still waiting, and a page a publish
  // has made old is skipped, so the backlog is never more than the kept pages. `idle()` waits.
  const awaitingBest = new Map<string, { keptPage: Kept; page: Page }>();
  let draining: Promise<void> | undefined;

  async function drain(): Promise<void> {
    for (const [path, { keptPage, page }] of awaitingBest) {
      awaitingBest.delete(path);
      const current = () => kept.get(path) === keptPage && keptPage.generation === generation();
      if (!current()) continue;
      try {
        const files = await compressed(page, false);
        if (current()) kept.set(path, { generation: keptPage.generation, files });
      } catch (error) {
        logger.error(`Compressing ${path} for the published pages failed: ${(error as Error).message}`);
      }
    }
  }

  function startDraining() {
    if (draining || awaitingBest.size === 0) return;
    // Map iteration also visits what is added meanwhile; this catches what comes after it ended.
    draining = drain().finally(() => {
      draining = undefined;
      startDraining();
    });
  }

  function recompressLater(path: string, keptPage: Kept, page: Page) {
    awaitingBest.set(path, { keptPage, page });
    startDraining();
  }

  /** Renders `path` for the current generation and keeps it; false when it is not a page to keep. */
  async function fill(path: string): Promise<boolean> {
    const started = generation();
    const response = await render(path);
    // A redirect, a 404 or a 410, an error: answered per request by the app, never kept.
    if (response.status !== 200) {
      await response.body?.cancel();
      return false;
    }
    const page = await readPage(path, response);
    const files = await compressed(page, true);
    // The posts changed while it rendered: this copy may already be old.
    if (generation() !== started) return false;
    if (kept.size >= MAX_PAGES) kept.clear();
    const keptPage = { generation: started, files };
    kept.set(path, keptPage);
    recompressLater(path, keptPage, page);
    return true;
  }

  const fresh = (path: string): Kept | undefined => {
    const page = kept.get(path);
    return page && page.generation === generation() ? page : undefined;
  };

  function prepareOnce(path: string): Promise<boolean> {
    if (fresh(path)) return Promise.resolve(true);
    let pending = rendering.get(path);
    if (!pending) {
      pending = fill(path)
        .catch((error: Error) => {
          logger.error(`Rendering ${path} for the published pages failed: ${error.message}`);
          return false;
        })
        .finally(() => rendering.delete(path));
      rendering.set(path, pending);
    }
    return pending;
  }

  // After a change, the pages every visitor meets first (the blog's list pages, the feed, the
  // sitemap) are rendered again straight away, one after the other, if they had been asked for:
  // the next reader does not wait for them. Articles are rendered when first asked for.
  let refreshing = false;
  onChange?.(() => {
    if (refreshing) return;
    refreshing = true;
    const paths = [...kept.keys()].filter((path) => !/^\/blog\/(?!page\/)/.test(path));
    void (async () => {
      try {
        for (const path of paths) await prepareOnce(path);
      } finally {
        refreshing = false;
      }
    })();
  });

  return {
    /** Is this a request for one of the published pages (GET or HEAD of their paths, any query)? */
    handles(method: string, path: string): boolean {
      return (method === "GET" || method === "HEAD") && isPublishedPath(path);
    },
    /** Sends the kept page and returns true, or returns false when there is none for this generation. */
    serve(
      req: IncomingMessage,
      res: ServerResponse,
      path: string,
      https: boolean,
      extraHeaders: readonly string[],
      onPage?: () => void,
    ): boolean {
      const page = fresh(path);
      if (!page) return false;
      sendPrepared(
        req,
        res,
        https ? page.files.https : page.files.plain,
        extraHeaders,
        https ? pageCookie.https : pageCookie.plain,
        onPage,
      );
      return true;
    },
    /**
     * Renders the page once for every request waiting on it. Resolves true when it is kept (serve()
     * now sends it), false when the app should answer this request itself; never rejects.
     */
    prepare: prepareOnce,
    /** Resolves once every kept page has its best compression (tests, benchmarks). */
    async idle(): Promise<void> {
      while (draining) await draining;
    },
    /** How many pages are kept (for tests and the metrics). */
    get size(): number {
      return kept.size;
    },
  };
}

export type PublishedPages = ReturnType<typeof createPublishedPages>;
