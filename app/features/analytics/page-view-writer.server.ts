import { CompiledQuery, type Kysely } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { type DailySalts, utcDay, type VisitorIdentity, visitorId } from "./daily-salt.server.ts";
import type { PageView } from "./page-view.ts";
import { addressKey, sharedVisitorId, type ViewLimits } from "./view-limits.server.ts";

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
  /** Over its address's rate (view-limits.server.ts): not written. */
  limited?: boolean;
};

export type PageViewStats = {
  /** Views waiting in memory. */
  buffered: number;
  written: number;
  /** Views dropped because the buffer was full. */
  dropped: number;
  /** Flushes that failed (their views were kept for the next one, within the cap). */
  failedFlushes: number;
  /** Views not stored because their address was over its rate (issue 22). */
  limited: number;
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
  /** What one address may add (issue 22); without it every view is stored under its own id. */
  limits?: ViewLimits;
};

export function createPageViewWriter({
  db,
  salts,
  flushIntervalMs = FLUSH_INTERVAL_MS,
  batchSize = BATCH_SIZE,
  rowsPerStatement = ROWS_PER_STATEMENT,
  maxBuffered = MAX_BUFFERED,
  logger = { error: () => {} },
  limits,
}: PageViewWriterOptions): PageViewWriter {
  let buffer: Pending[] = [];
  const postgres = isPostgres(db);
  const statements = new Map<number, string>();
  let timer: NodeJS.Timeout | undefined;
  let active: Promise<void> | undefined;
  let stopped = false;
  const stats = { written: 0, dropped: 0, failedFlushes: 0, limited: 0 };

  /**
   * The visitor id to store the view under, or undefined when its address is over its rate; a
   * stored 404 may have its path folded. The address is hashed here and not kept.
   */
  function admit(view: PageView, salt: string, identity: VisitorIdentity): string | undefined {
    const own = visitorId(salt, identity);
    if (!limits) return own;
    const day = utcDay(view.occurredAt);
    const key = addressKey(salt, identity.clientAddress);
    const id = limits.admit(day, key, own, Date.parse(view.occurredAt), () => sharedVisitorId(salt, key));
    if (id === undefined) stats.limited++;
    else if (view.isNotFound) view.path = limits.notFoundPath(day, view.path);
    return id;
  }

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
        const id = admit(item.view, await salts.get(utcDay(item.view.occurredAt)), item.identity);
        if (id === undefined) item.limited = true;
        else item.visitorId = id;
        item.identity = undefined;
      }
    }
    const rows = batch.filter((item) => !item.limited);
    if (rows.length === 0) return;
    const parameters: unknown[] = [];
    for (const item of rows) appendRow(parameters, item.view, item.visitorId ?? "");
    await db.executeQuery(CompiledQuery.raw(insertStatement(rows.length, postgres, statements), parameters));
    stats.written += rows.length;
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
      // Hash now when the day's salt is known (the usual case), so the identity is not kept at all;
      // a view over its address's rate goes no further.
      if (salt === undefined) buffer.push({ view, identity });
      else {
        const id = admit(view, salt, identity);
        if (id === undefined) return;
        buffer.push({ view, visitorId: id });
      }
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
