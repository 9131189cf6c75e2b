import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * Presents `node:sqlite` with the better-sqlite3 shape Kysely's SqliteDialect expects, so the
 * embedded database needs no native add-on. A statement "reads" when it yields columns, which also
 * covers INSERT ... RETURNING.
 */
export function nodeSqliteDatabase(database: DatabaseSync): SqliteDatabase {
  // Kysely prepares every query it runs; the app runs the same few SQL texts over and over, so each
  // is compiled by SQLite once (a measurable share of a lead submission's CPU otherwise).
  const statements = new Map<string, { prepared: StatementSync; reader: boolean }>();
  // SQLite's lower() folds A-Z only; searches for accented text call this one instead (PostgreSQL
  // gets a function of the same name in migration 005), so both databases fold every letter.
  database.function("unicode_lower", { deterministic: true }, (value) =>
    typeof value === "string" ? value.toLowerCase() : value,
  );
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (!statement) {
        const prepared = database.prepare(sql);
        statement = { prepared, reader: prepared.columns().length > 0 };
        // Bounded: dynamic SQL (a search with many terms) must not grow the cache forever.
        if (statements.size < 500) statements.set(sql, statement);
      }
      const { prepared, reader } = statement;
      const args = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
      return {
        reader,
        all: (parameters) => prepared.all(...args(parameters)),
        run(parameters) {
          const { changes, lastInsertRowid } = prepared.run(...args(parameters));
          return { changes, lastInsertRowid };
        },
        iterate: (parameters) => prepared.iterate(...args(parameters)),
      };
    },
  };
}

/** What Kysely binds, as node:sqlite takes it (booleans as 0/1, undefined as NULL). */
export function toSqliteValue(value: unknown): SQLInputValue {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === undefined) return null;
  return value as SQLInputValue;
}

export { DatabaseSync };
