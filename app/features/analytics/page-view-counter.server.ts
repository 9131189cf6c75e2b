import { createDailySalts, type DailySalts } from "./daily-salt.server.ts";
import { describePageView, type PageRequest, shouldCount } from "./page-view.ts";
import {
  createPageViewWriter,
  type PageViewStats,
  type PageViewWriterOptions,
} from "./page-view-writer.server.ts";
import { MAX_USER_AGENT_LENGTH } from "./user-agent.ts";
import { createViewLimits, type ViewLimits } from "./view-limits.server.ts";

/**
 * What the HTTP server calls (server/http-server.ts): `shouldCount` before it answers, `count` once
 * it has answered with a public page. Built once per process by services.server.ts; with
 * ANALYTICS=off it counts nothing and `shouldCount` is always false.
 */
export type PageViewCounter = {
  readonly enabled: boolean;
  shouldCount(request: PageRequest): boolean;
  /**
   * Records the view of the page at `url` (this site's URL of the request). `clientAddress` as the
   * server resolved it (TRUST_PROXY): hashed into the visitor id, never stored.
   */
  count(request: PageRequest, url: URL, answer: { notFound: boolean; clientAddress: string }): void;
  /** Writes the buffered views now (tests, and the shutdown through stop()). */
  flush(): Promise<void>;
  /** Writes what is left; call on shutdown before closing the database. */
  stop(): Promise<void>;
  /** Deletes expired salts (the background work calls it now and then). */
  prune(): Promise<void>;
  stats(): PageViewStats;
};

export type PageViewCounterOptions = Omit<PageViewWriterOptions, "salts" | "limits"> & {
  enabled: boolean;
  salts?: DailySalts;
  /** What one address may add (issue 22); the defaults of view-limits.server.ts unless given. */
  limits?: ViewLimits;
  now?: () => Date;
};

export function createPageViewCounter({
  enabled,
  now = () => new Date(),
  ...options
}: PageViewCounterOptions): PageViewCounter {
  const salts = options.salts ?? createDailySalts(options.db, now);
  const writer = createPageViewWriter({ ...options, salts, limits: options.limits ?? createViewLimits() });
  return {
    enabled,
    shouldCount: (request) => enabled && shouldCount(request),
    count(request, url, { notFound, clientAddress }) {
      if (!enabled) return;
      const userAgent = request.headers["user-agent"];
      writer.record(describePageView(request, url, { notFound, now: now() }), {
        clientAddress,
        userAgent: ((Array.isArray(userAgent) ? userAgent[0] : userAgent) ?? "").slice(
          0,
          MAX_USER_AGENT_LENGTH,
        ),
        host: url.host,
      });
    },
    flush: writer.flush,
    stop: writer.stop,
    prune: salts.prune,
    stats: writer.stats,
  };
}
