import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { migrateToLatest, migrations } from "../../app/db/migrate.server.ts";

/** The PostgreSQL the data tests use: TEST_DATABASE_URL, else the local one CI provides. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

let postgresReachable: Promise<boolean> | undefined;

/** Whether PostgreSQL answers; with REQUIRE_POSTGRES=1 (set by .ci/run) an unreachable one is an error. */
export function checkPostgres(): Promise<boolean> {
  postgresReachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (error) {
      if (process.env.REQUIRE_POSTGRES === "1") {
        throw new Error(
          `PostgreSQL is required (REQUIRE_POSTGRES=1) but ${TEST_POSTGRES_URL} is unreachable: ${(error as Error).message}`,
        );
      }
      console.warn(
        `\n*** PostgreSQL at ${TEST_POSTGRES_URL} is unreachable: the PostgreSQL half of the data tests is SKIPPED ***\n`,
      );
      return false;
    }
  })();
  return postgresReachable;
}

/** A fresh, migrated database of each kind; PostgreSQL gets its own schema so test files run in parallel. */
export async function createTestDatabase(
  kind: "sqlite" | "postgres",
): Promise<AppDatabase & { dispose(): Promise<void> }> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "leads-test-"));
    const database = openDatabase(join(dir, "test.sqlite"));
    await migrateToLatest(database.db);
    return {
      ...database,
      async dispose() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const { schema, drop } = await createPostgresSchema();
  const database = openDatabase(TEST_POSTGRES_URL, { postgresSchema: schema, poolSize: 4 });
  await migrateToLatest(database.db);
  return {
    ...database,
    async dispose() {
      await database.close();
      await drop();
    },
  };
}

/**
 * A migration's test on a database deployed before it: `test` runs on a fresh database of `kind`
 * brought up to just before `migration` (every migration whose name sorts before it), which is
 * removed afterwards whatever the test did.
 */
export async function withDatabaseBefore(
  kind: "sqlite" | "postgres",
  migration: string,
  test: (database: AppDatabase) => Promise<void>,
): Promise<void> {
  const empty = await createEmptyDatabaseUrl(kind);
  const database = openDatabase(empty.url, { poolSize: 2 });
  try {
    await migrateToLatest(
      database.db,
      Object.fromEntries(Object.entries(migrations).filter(([name]) => name < migration)),
    );
    await test(database);
  } finally {
    await database.close();
    await empty.dispose();
  }
}

/** Runs one statement on the test PostgreSQL, on a connection of its own (set-up and clean-up). */
export async function runOnTestPostgres(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * An empty PostgreSQL schema of its own, with a DATABASE_URL that selects it (for a server process).
 */
export async function createPostgresSchema(): Promise<{
  schema: string;
  url: string;
  drop(): Promise<void>;
}> {
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const run = runOnTestPostgres;
  await run(`create schema ${schema}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return { schema, url: url.href, drop: () => run(`drop schema if exists ${schema} cascade`) };
}

/**
 * An empty database of either kind, as a DATABASE_URL for `createServices` or a server process
 * (which migrate it themselves): a SQLite file in a directory of its own, or a PostgreSQL schema.
 */
export async function createEmptyDatabaseUrl(
  kind: "sqlite" | "postgres",
): Promise<{ url: string; dispose(): Promise<void> }> {
  if (kind === "postgres") {
    const schema = await createPostgresSchema();
    return { url: schema.url, dispose: schema.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), "app-db-"));
  return { url: join(dir, "app.sqlite"), dispose: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs the same suite against SQLite and PostgreSQL. `use()` returns the database of the current
 * suite (created in beforeAll, dropped in afterAll).
 */
export function describeEachDatabase(name: string, suite: (use: () => AppDatabase) => void): void {
  for (const kind of ["sqlite", "postgres"] as const) {
    describe(`${name} [${kind}]`, async () => {
      const available = kind === "sqlite" || (await checkPostgres());
      let database: (AppDatabase & { dispose(): Promise<void> }) | undefined;
      beforeAll(async () => {
        if (available) database = await createTestDatabase(kind);
      });
      afterAll(async () => {
        await database?.dispose();
      });
      // checkPostgres() has already said loudly that this half does not run (and fails under CI).
      if (!available) return;
      suite(() => {
        if (!database) throw new Error("database not ready");
        return database;
      });
    });
  }
}
