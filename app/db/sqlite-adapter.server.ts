import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * Presents `node:sqlite` with the better-sqlite3 shape Kysely's SqliteDialect expects, so the
 * embedded database needs no native add-on. A statement "reads" when it yields columns, which also
 * covers INSERT ... RETURNING.
 */
export function nodeSqliteDatabase(database: DatabaseSync): SqliteDatabase {
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const statement: StatementSync = database.prepare(sql);
      const args = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqlite);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...args(parameters)),
        run(parameters) {
          const { changes, lastInsertRowid } = statement.run(...args(parameters));
          return { changes, lastInsertRowid };
        },
        iterate: (parameters) => statement.iterate(...args(parameters)),
      };
    },
  };
}

function toSqlite(value: unknown): SQLInputValue {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === undefined) return null;
  return value as SQLInputValue;
}

export { DatabaseSync };
