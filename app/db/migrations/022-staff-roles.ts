import { type Kysely, sql } from "kysely";

// Issue 23, roles enforced by the server (ADR 021): every back-office account has a role, admin,
// sales or marketing. The accounts that exist are admins today, so they become admins; an account
// with is_admin = 0 (the SPEC's signed-in non-admin) gets no role: it never had back-office access and
// a role would grant some. is_admin stays, written with the role (true for admin and sales, the
// SPEC's lead dashboard being theirs), for the queries and tools that read it.
// NOTE: numbered 022 on branch i23-roles; other branches may add their own 022 (renumber on merge).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("role", "text", (column) => column.check(sql`role in ('admin', 'sales', 'marketing')`))
    .execute();
  await sql`update users set role = 'admin' where is_admin = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("role").execute();
}
