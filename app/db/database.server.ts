import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CamelCasePlugin, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
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
    // arrives: the client gives up on its own a little later (then 503)...
    query_timeout: waitMs + 1000,
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
    dropConnectionOnReadTimeout(client);
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
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

/**
 * pg's query_timeout answers the caller but keeps the connection, with the unanswered query still in
 * its queue: every later query on it would wait behind a frozen peer. Closing the socket makes the pool
 * drop that client and open fresh connections, so it recovers by itself once the database answers.
 */
function dropConnectionOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const socketOf = (c: pg.PoolClient) =>
    (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if ((error as Error | undefined)?.message === "Query read timeout") socketOf(client)?.destroy();
      });
    }
    return result;
  };
}
