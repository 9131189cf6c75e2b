import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "./schema.ts";
import { DatabaseSync, nodeSqliteDatabase } from "./sqlite-adapter.server.ts";

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
};

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
  // Concurrent writers (a CLI next to the server) wait up to 5 s for the lock instead of failing.
  const sqlite = new DatabaseSync(location, { timeout: 5000 });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec(`PRAGMA synchronous = ${options.sqliteSynchronous ?? "NORMAL"}`);
  sqlite.exec("PRAGMA foreign_keys = ON");
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: nodeSqliteDatabase(sqlite) }),
    plugins: [new CamelCasePlugin()],
  });
  return { db, dialect: "sqlite", description: `SQLite ${location}`, close: () => db.destroy() };
}

function openPostgres(url: string, options: DatabaseOptions): AppDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // A dead database fails requests quickly instead of queueing them forever.
    connectionTimeoutMillis: 5000,
    ...(options.postgresSchema ? { options: `-c search_path=${options.postgresSchema}` } : {}),
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
