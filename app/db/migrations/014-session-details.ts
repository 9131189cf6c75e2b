import { type Kysely, sql } from "kysely";
import { isPostgres } from "../migration-helpers.ts";

// Issue 13: staff see their sessions and end any of them. Each session gets a public handle (the
// token's hash stays private: it is what a stolen database row would be matched against), the
// browser it signed in from ("Firefox on Windows", never the raw User-Agent) and the client address
// masked to its network (203.0.113.x, 2001:db8:1::/48): enough to recognise a session, not to locate
// a person.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("sessions")
    .addColumn("handle", "text", (column) => column.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("sessions").addColumn("browser", "text").execute();
  await db.schema.alterTable("sessions").addColumn("address", "text").execute();
  // Sessions opened before this migration get a random handle too.
  await sql
    .raw(
      isPostgres(db)
        ? "update sessions set handle = substr(md5(random()::text || id_hash), 1, 24) where handle = ''"
        : "update sessions set handle = lower(hex(randomblob(12))) where handle = ''",
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["address", "browser", "handle"])
    await db.schema.alterTable("sessions").dropColumn(column).execute();
}
