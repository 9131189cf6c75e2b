import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CamelCasePlugin, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { preparedStatementName } from "./prepared-statements.ts";
import type { Database } from "./schema.ts";
import { createSqliteDialect } from "./sqlite-dialect.server.ts";

export type DialectName = "sqlite" | "postgres";

export type AppDatabase = {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, without credentials (safe to log). */
  description: string;
  /** PostgreSQL only: the connection pool's use right now (for the metrics). */
  poolUse?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** SQLite only: NORMAL survives a crash of the process, FULL also a crash of the machine. */
  sqliteSynchronous?: "NORMAL" | "FULL";
  /** PostgreSQL only: connections per app instance. */
  poolSize?: number;
  /** PostgreSQL only: a schema to use instead of `public` (tests isolate themselves this way). */
  postgresSchema?: string;
  /**
   * How long a request waits on the database before it is answered 503: a write waiting for a lock
   * another process holds (SQLite), a statement or a frozen connection (PostgreSQL). ADR 008.
   */
  waitMs?: number;
};

export const DEFAULT_DATABASE_WAIT_MS = 5000;

export const DEFAULT_SQLITE_PATH = "./data/app.sqlite";

/**
 * Opens the database DATABASE_URL names: nothing, a path, `file:` or `sqlite:` → embedded SQLite;
 * `postgres://` or `postgresql://` → PostgreSQL with a connection pool.
 */
export function openDatabase(url: string | undefined, options: DatabaseOptions = {}): AppDatabase {
  const sqlitePath = sqlitePathOf(url);
  return sqlitePath === null ? openPostgres(url ?? "", options) : openSqlite(sqlitePath, options);
}

/** The SQLite file DATABASE_URL names (as given, unresolved), or null for PostgreSQL. */
export function sqlitePathOf(url: string | undefined): string | null {
  if (url && /^postgres(ql)?:\/\//i.test(url)) return null;
  // NOTE: `sqlite:` too: read as a relative path, `sqlite:/tmp/x.db` became ./sqlite:/tmp/x.db.
  return url ? url.replace(/^(?:file|sqlite):(\/\/)?/i, "") : DEFAULT_SQLITE_PATH;
}

function openSqlite(path: string, options: DatabaseOptions): AppDatabase {
  const inMemory = path === ":memory:";
  const location = inMemory ? path : resolve(path);
  if (!inMemory) mkdirSync(dirname(location), { recursive: true });
  const db = new Kysely<Database>({
    dialect: createSqliteDialect({
      path: location,
      synchronous: options.sqliteSynchronous ?? "NORMAL",
      writeWaitMs: options.waitMs ?? DEFAULT_DATABASE_WAIT_MS,
    }),
    plugins: [new CamelCasePlugin()],
  });
  return { db, dialect: "sqlite", description: `SQLite ${location}`, close: () => db.destroy() };
}

function openPostgres(url: string, options: DatabaseOptions): AppDatabase {
  const waitMs = options.waitMs ?? DEFAULT_DATABASE_WAIT_MS;
  const target = new URL(url);
  const serverSettings = [
    // The server cancels a statement running longer than the bound, and ends a session left idle
    // inside a transaction (a crashed client holding locks).
    `-c statement_timeout=${waitMs}`,
    `-c idle_in_transaction_session_timeout=${Math.max(waitMs * 6, 30_000)}`,
    ...(options.postgresSchema ? [`-c search_path=${options.postgresSchema}`] : []),
    // Settings the URL itself carries (`?options=...`) come last and win.
    ...(target.searchParams.get("options") ? [target.searchParams.get("options")] : []),
  ];
  // pg lets the URL's parameters override the config object's, so the settings travel in the URL.
  target.searchParams.set("options", serverSettings.join(" "));
  const pool = new pg.Pool({
    connectionString: target.href,
    max: options.poolSize ?? 10,
    // A dead database fails requests quickly instead of queueing them forever.
    connectionTimeoutMillis: waitMs,
    // A frozen host or a network black hole answers nothing, so the server's statement_timeout never
    // arrives: the client gives up on its own at the bound (then 503). The first statement after a
    // checkout gets only what the wait for the connection left (boundFirstStatement, issue 22)...
    query_timeout: waitMs,
    // ...and peers that vanished without a FIN are found even on idle connections.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (error) => console.error("PostgreSQL pool error:", error.message));
  pool.on("connect", (client) => {
    // pg only listens for errors on idle clients: a connection dying while checked out (the database
    // restarted mid-request) would otherwise emit an unhandled 'error' and end the process. The query
    // in flight fails on its own (503), and the pool discards the broken client when it comes back.
    client.on("error", () => {});
    boundStatements(client, waitMs);
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: boundFirstStatement(pool) }),
    plugins: [new CamelCasePlugin()],
  });
  return {
    db,
    dialect: "postgres",
    description: `PostgreSQL ${target.hostname}:${target.port || 5432}${target.pathname}`,
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

/** When the wait for a checked-out client began (performance.now()), until its first statement. */
const checkoutStarted = new WeakMap<object, number>();

/**
 * One wait on PostgreSQL is getting a connection and running the statement it was wanted for,
 * together at most DATABASE_WAIT_MS (issue 22): pg bounds each on its own (connectionTimeoutMillis,
 * query_timeout), so a connection that came late followed by a frozen statement waited up to twice
 * the bound. Kysely takes a client per query (per transaction), so the first statement after each
 * checkout gets only the time the checkout left; the statements after it in a transaction get the
 * whole bound each, as the server's statement_timeout does.
 */
function boundFirstStatement(pool: pg.Pool) {
  return {
    Client: (pool as unknown as { Client?: never }).Client,
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      const started = performance.now();
      const client = await pool.connect();
      checkoutStarted.set(client, started);
      return client;
    },
  };
}

/**
 * Wraps a new client's `query`: the first statement after a checkout is bounded by what is left of
 * the wait (boundFirstStatement); and pg's query_timeout answers the caller but keeps the connection,
 * with the unanswered query still in its queue: every later query on it would wait behind a frozen
 * peer. Closing the socket makes the pool drop that client and open fresh connections, so it recovers
 * by itself once the database answers.
 */
function boundStatements(client: pg.PoolClient, waitMs: number): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const socketOf = (c: pg.PoolClient) =>
    (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const started = checkoutStarted.get(client);
    if (started !== undefined) {
      checkoutStarted.delete(client);
      const left = Math.max(1, Math.round(waitMs - (performance.now() - started)));
      const [config, ...rest] = args;
      // Kysely sends (text, values); a Cursor or Query object (with submit) keeps the client's bound.
      if (typeof config === "string") args = [{ text: config, query_timeout: left }, ...rest];
      else if (config && typeof config === "object" && !("submit" in config))
        args = [{ ...config, query_timeout: left }, ...rest];
    }
    args = named(args);
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if ((error as Error | undefined)?.message === "Query read timeout") socketOf(client)?.destroy();
      });
    }
    return result;
  };
}

/** Kysely's (text, values) or a config object, as a named prepared statement when the text is marked. */
function named(args: unknown[]): unknown[] {
  const [config, ...rest] = args;
  if (typeof config === "string") {
    const name = preparedStatementName(config);
    return name ? [{ name, text: config, values: rest[0] }, ...rest.slice(1)] : args;
  }
  if (config && typeof config === "object" && !("submit" in config) && !("name" in config)) {
    const text = (config as { text?: unknown }).text;
    const name = typeof text === "string" ? preparedStatementName(text) : undefined;
    return name ? [{ ...config, name }, ...rest] : args;
  }
  return args;
}
