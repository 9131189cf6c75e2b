import { type CreateTableBuilder, type Kysely, PostgresAdapter } from "kysely";

/** True on PostgreSQL: the few places the two dialects need different DDL ask this. */
export function isPostgres(db: Pick<Kysely<unknown>, "getExecutor">): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An `id` primary key the database numbers itself (identity on PostgreSQL, rowid on SQLite). */
export function autoIncrementId<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, "id"> {
  return isPostgres(db)
    ? table.addColumn("id", "integer", (column) => column.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (column) => column.primaryKey().autoIncrement());
}
