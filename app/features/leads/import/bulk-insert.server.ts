import { sql, type Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";

// Many rows in one statement, for the CSV import's thousands of leads (issue 23). PostgreSQL gets
// one array per column (`insert … select * from unnest($1::text[], …)`): a handful of parameters
// instead of rows × columns, which PostgreSQL parses and plans several times faster. SQLite gets a
// multi-row VALUES list of about 10,000 parameters (larger lists were slower to prepare).

export type BulkColumn = { name: string; type: "text" | "integer" | "bigint" };

/** Inserts `rows` (values in `columns` order) into `table`; answers the `returning` columns, in row order. */
export async function bulkInsert<R extends Record<string, unknown> = Record<string, never>>(
  trx: Transaction<Database>,
  table: string,
  columns: BulkColumn[],
  rows: unknown[][],
  returning: string[] = [],
): Promise<R[]> {
  if (rows.length === 0) return [];
  const names = sql.raw(columns.map((column) => column.name).join(", "));
  const back = returning.length > 0 ? sql` returning ${sql.raw(returning.join(", "))}` : sql``;
  if (isPostgres(trx)) {
    const arrays = columns.map(
      (column, index) => sql`${rows.map((row) => row[index] ?? null)}::${sql.raw(column.type)}[]`,
    );
    // WITH ORDINALITY keeps the rows' order for RETURNING's sake.
    const result = await sql<R>`insert into ${sql.table(table)} (${names})
      select ${names} from unnest(${sql.join(arrays)}) with ordinality as t (${names}, ord) order by ord${back}`.execute(
      trx,
    );
    return result.rows;
  }
  const out: R[] = [];
  const perStatement = Math.max(1, Math.floor(10_000 / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const values = rows
      .slice(start, start + perStatement)
      .map((row) => sql`(${sql.join(row.map((value) => sql`${value ?? null}`))})`);
    const result =
      await sql<R>`insert into ${sql.table(table)} (${names}) values ${sql.join(values)}${back}`.execute(trx);
    out.push(...result.rows);
  }
  return out;
}
