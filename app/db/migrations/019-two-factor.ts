import type { Kysely } from "kysely";

// Issue 13, staff two-factor sign-in (ADR 017). On `users`: the TOTP secret (encrypted under a key
// derived from the app secret, never in clear), when it was confirmed (null while an enrolment
// waits for its first code: such a secret does not guard sign-in yet), and the last 30-second step
// a code was accepted for, so no code is accepted twice. Recovery codes are kept as keyed hashes
// only. A pending login is the half-way point between a right password and a right code: its cookie
// holds a random token, this table its hash, bound to one user for five minutes and used once. An
// enrolment begun at sign-in keeps its new secret on the pending login (encrypted), not on the user:
// each sign-in gets its own, so someone who saw one with the password alone cannot have it confirmed
// later by the account's owner.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("totp_secret", "text").execute();
  await db.schema.alterTable("users").addColumn("totp_enabled_at", "text").execute();
  await db.schema.alterTable("users").addColumn("totp_last_step", "integer").execute();

  await db.schema
    .createTable("recovery_codes")
    .addColumn("user_id", "integer", (column) => column.notNull().references("users.id").onDelete("cascade"))
    // HMAC-SHA256 of the normalised code under a key derived from the app secret.
    .addColumn("code_hash", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("used_at", "text")
    .addPrimaryKeyConstraint("recovery_codes_pk", ["user_id", "code_hash"])
    .execute();

  await db.schema
    .createTable("pending_logins")
    .addColumn("token_hash", "text", (column) => column.primaryKey())
    .addColumn("user_id", "integer", (column) => column.notNull().references("users.id").onDelete("cascade"))
    // "verify": the account has 2FA; "enrol": it must set it up before its first session.
    .addColumn("purpose", "text", (column) => column.notNull())
    // "enrol" only: the secret this sign-in shows and must confirm, encrypted like users.totp_secret.
    .addColumn("totp_secret", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("expires_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("pending_logins_user_idx").on("pending_logins").column("user_id").execute();
  await db.schema
    .createIndex("pending_logins_expires_idx")
    .on("pending_logins")
    .column("expires_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("pending_logins").execute();
  await db.schema.dropTable("recovery_codes").execute();
  for (const column of ["totp_last_step", "totp_enabled_at", "totp_secret"])
    await db.schema.alterTable("users").dropColumn(column).execute();
}
