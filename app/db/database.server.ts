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
 * Opens the database DATABASE_URL names: nothing, a path or `file:` → embedded SQLite; `postgres://`
 * or `postgresql://` → PostgreSQL with a connection pool.
 */
export function openDatabase(url: string | undefined, options: DatabaseOptions = {}): AppDatabase {
  if (url && /^postgres(ql)?:\/\//i.test(url)) return openPostgres(url, options);
  return openSqlite(url ? url.replace(/^file:(\/\/)?/i, "") : DEFAULT_SQLITE_PATH, options);
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
  const serverSettings = [
    // The server cancels a statement running longer than the bound, and ends a session left idle
    // inside a transaction (a crashed client holding locks).
    `-c statement_timeout=${waitMs}`,
    `-c idle_in_transaction_session_timeout=${Math.max(waitMs * 6, 30_000)}`,
    ...(options.postgresSchema ? [`-c search_path=${options.postgresSchema}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // A dead database fails requests quickly instead of queueing them forever.
    connectionTimeoutMillis: waitMs,
    // A frozen host or a network black hole answers nothing, so the server's statement_timeout never
    // arrives: the client gives up on its own a little later, and the pool drops that connection.
    query_timeout: waitMs + 1000,
    // Finds connections whose peer vanished without a FIN, so they are not reused forever.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    options: serverSettings.join(" "),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (error) => console.error("PostgreSQL pool error:", error.message));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
  const target = new URL(url);
  return {
    db,
    dialect: "postgres",
    description: `PostgreSQL ${target.hostname}:${target.port || 5432}${target.pathname}`,
    close: () => db.destroy(),
  };
}
