import { CompiledQuery, type Kysely } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { type DailySalts, utcDay, type VisitorIdentity, visitorId } from "./daily-salt.server.ts";
import type { PageView } from "./page-view.ts";

// Page views are written in batches, off the request (ADR 014): a request only pushes its view into
// memory. A flush writes them as multi-row inserts every second, or at once when 500 are waiting, and
// on clean shutdown. The cost of this is the loss window: a crash loses the views of the last second
// (at most one flush interval, plus whatever a failing database kept waiting, up to the cap).

export const FLUSH_INTERVAL_MS = 1000;
/** A flush starts early once this many views wait. */
export const BATCH_SIZE = 500;
/**
 * Rows per insert statement. SQLite writes on the event loop (ADR 008): 100 rows hold it for about
 * half a millisecond, and requests are answered between two statements of a flush; 500 rows doubled
 * the pages' p99 under load (npm run bench:pages).
 */
export const ROWS_PER_STATEMENT = 100;
/** Beyond this many waiting views (the database is down or slow), the oldest are dropped and counted. */
export const MAX_BUFFERED = 10_000;

// The columns of a multi-row insert, in the order of insertRow's values.
const COLUMNS = [
  "occurred_at",
  "path",
  "referrer_host",
  "referrer_path",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "paid_click",
  "device",
  "browser",
  "visitor_id",
  "is_not_found",
] as const;

function appendRow(parameters: unknown[], view: PageView, visitor: string): void {
  parameters.push(
    view.occurredAt,
    view.path,
    view.referrerHost,
    view.referrerPath,
    view.utmSource,
    view.utmMedium,
    view.utmCampaign,
    view.utmTerm,
    view.utmContent,
    view.paidClick ? 1 : 0,
    view.device,
    view.browser,
    visitor,
    view.isNotFound ? 1 : 0,
  );
}

/**
 * The text of an insert of `rows` rows. NOTE: written by hand rather than with Kysely's builder:
 * compiling a 500-row insert through the query builder and the camel-case plugin cost ~30 µs a row,
 * more than serving the page (npm run bench:pages). The statement text depends only on the row
 * count, so it is cached.
 */
function insertStatement(rows: number, postgres: boolean, cache: Map<number, string>): string {
  let text = cache.get(rows);
  if (text) return text;
  const width = COLUMNS.length;
  const tuples: string[] = [];
  for (let row = 0; row < rows; row++) {
    const marks = Array.from({ length: width }, (_, column) =>
      postgres ? `$${row * width + column + 1}` : "?",
    );
    tuples.push(`(${marks.join(", ")})`);
  }
  text = `insert into analytics_page_views (${COLUMNS.join(", ")}) values ${tuples.join(", ")}`;
  if (cache.size >= 8) cache.clear();
  cache.set(rows, text);
  return text;
}

type Pending = {
  view: PageView;
  /** Set once hashed; until then the identity to hash (kept in memory only until the flush). */
  visitorId?: string;
  identity?: VisitorIdentity;
};

export type PageViewStats = {
  /** Views waiting in memory. */
  buffered: number;
  written: number;
  /** Views dropped because the buffer was full. */
  dropped: number;
  /** Flushes that failed (their views were kept for the next one, within the cap). */
  failedFlushes: number;
};

export type PageViewWriter = {
  /** Buffers a view; never waits, never throws. */
  record(view: PageView, identity: VisitorIdentity): void;
  /** Writes everything buffered now; resolves when written (or when the attempt failed and was logged). */
  flush(): Promise<void>;
  /** Writes what is left and stops; later views are ignored. */
  stop(): Promise<void>;
  stats(): PageViewStats;
};

export type PageViewWriterOptions = {
  db: Kysely<Database>;
  salts: DailySalts;
  flushIntervalMs?: number;
  batchSize?: number;
  rowsPerStatement?: number;
  maxBuffered?: number;
  /** One line per problem; never a client address, User-Agent or path. */
  logger?: { error(message: string): void };
};

export function createPageViewWriter({
  db,
  salts,
  flushIntervalMs = FLUSH_INTERVAL_MS,
  batchSize = BATCH_SIZE,
  rowsPerStatement = ROWS_PER_STATEMENT,
  maxBuffered = MAX_BUFFERED,
  logger = { error: () => {} },
}: PageViewWriterOptions): PageViewWriter {
  let buffer: Pending[] = [];
  const postgres = isPostgres(db);
  const statements = new Map<number, string>();
  let timer: NodeJS.Timeout | undefined;
  let active: Promise<void> | undefined;
  let stopped = false;
  const stats = { written: 0, dropped: 0, failedFlushes: 0 };

  function schedule(): void {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, flushIntervalMs);
    // Views waiting must not keep a process (a test, a CLI) alive; shutdown flushes them explicitly.
    timer.unref();
  }

  function trim(): void {
    const excess = buffer.length - maxBuffered;
    if (excess > 0) {
      buffer.splice(0, excess);
      stats.dropped += excess;
    }
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    for (const item of batch) {
      if (item.visitorId === undefined && item.identity) {
        item.visitorId = visitorId(await salts.get(utcDay(item.view.occurredAt)), item.identity);
        item.identity = undefined;
      }
    }
    const parameters: unknown[] = [];
    for (const item of batch) appendRow(parameters, item.view, item.visitorId ?? "");
    await db.executeQuery(CompiledQuery.raw(insertStatement(batch.length, postgres, statements), parameters));
    stats.written += batch.length;
  }

  async function drain(): Promise<void> {
    while (buffer.length > 0) {
      const batch = buffer.splice(0, rowsPerStatement);
      try {
        await writeBatch(batch);
      } catch (error) {
        stats.failedFlushes++;
        // Kept for the next flush, in front of the newer ones, within the cap.
        buffer = batch.concat(buffer);
        trim();
        const code = (error as { code?: unknown } | undefined)?.code;
        logger.error(
          `Analytics: writing ${batch.length} page views failed (${typeof code === "string" ? `${code}: ` : ""}${String(
            (error as Error)?.message ?? error,
          )
            .split("\n")[0]
            ?.slice(0, 200)}); ${buffer.length} waiting, retrying in ${flushIntervalMs} ms`,
        );
        schedule();
        return;
      }
    }
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    // One flush at a time; a flush asked for during another runs after it.
    const run = (active ?? Promise.resolve()).then(drain);
    const tracked = run.finally(() => {
      if (active === tracked) active = undefined;
    });
    active = tracked;
    return tracked;
  }

  return {
    record(view, identity) {
      if (stopped) return;
      const day = utcDay(view.occurredAt);
      const salt = salts.cached(day);
      // Hash now when the day's salt is known (the usual case), so the identity is not kept at all.
      buffer.push(salt === undefined ? { view, identity } : { view, visitorId: visitorId(salt, identity) });
      trim();
      if (buffer.length >= batchSize && !active) {
        // Off the request's turn of the event loop: its answer goes out first.
        setImmediate(() => void flush());
      } else schedule();
    },
    flush,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await flush();
    },
    stats: () => ({ buffered: buffer.length, ...stats }),
  };
}
