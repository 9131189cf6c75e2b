import { createHmac } from "node:crypto";
import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import { preparedOnPostgres } from "#app/db/prepared-statements.ts";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import type { Actor } from "./lead-events.server.ts";
import { eraseFormerEmail } from "./lead-former-emails.server.ts";
import { contactKey } from "./lead-repository.server.ts";

// Erasing a person (issue 13, UK GDPR article 17): every lead held on their normalised email (the
// contact key every lead stores) goes in one transaction, leaving only a suppression record (an
// HMAC of the email, the date, the reason) that new leads from that email are checked against. Leads
// that carried the address before staff replaced it keep the change, not the address (ADR 044).
// features/people finds and exports a person's data through the composition root.

/** The suppression key of an email: HMAC-SHA256 of its contact key under the app secret. */
export function suppressionKey(secret: string, email: string): string {
  return createHmac("sha256", secret)
    .update(`erasure:${contactKey(email)}`)
    .digest("base64url");
}

/**
 * erasedOn and the webhooks (id, events) in one statement: a new lead needs both in its transaction,
 * and each statement is a round trip on PostgreSQL (issue 22: a submission's statements doubled).
 * `alongside`, on PostgreSQL only, is a data-modifying statement returning one text column `hits`
 * (the rate limit's first hit) run in the same statement (issue 32 point 17); `alongsideRows` is
 * how many rows it returned.
 */
export async function erasedOnWithWebhooks(
  db: Kysely<Database> | Transaction<Database>,
  secret: string,
  email: string,
  alongside?: RawBuilder<{ hits: string }>,
): Promise<{ erasedAt: string | null; webhooks: { id: number; events: string }[]; alongsideRows: number }> {
  const key = suppressionKey(secret, email);
  const { rows } = await (alongside
    ? sql<{ kind: string; value: string | null; id: number | string | null }>`${preparedOnPostgres}
    with alongside as (${alongside})
    select 'erased' as kind, erased_at as value, null as id from erasure_suppressions
      where email_hmac = ${key}
    union all
    select 'webhook' as kind, events as value, id from webhooks
    union all
    select 'alongside' as kind, hits as value, null as id from alongside`
    : sql<{ kind: string; value: string | null; id: number | string | null }>`${preparedOnPostgres}
    select 'erased' as kind, erased_at as value, null as id from erasure_suppressions
      where email_hmac = ${key}
    union all
    select 'webhook' as kind, events as value, id from webhooks`
  ).execute(db);
  let erasedAt: string | null = null;
  let alongsideRows = 0;
  const webhooks: { id: number; events: string }[] = [];
  for (const row of rows) {
    if (row.kind === "erased") erasedAt = row.value;
    else if (row.kind === "alongside") alongsideRows++;
    else webhooks.push({ id: Number(row.id), events: row.value ?? "" });
  }
  return { erasedAt, webhooks, alongsideRows };
}

/** When the person with this email was erased, or null if never. */
export async function erasedOn(
  db: Kysely<Database> | Transaction<Database>,
  secret: string,
  email: string,
): Promise<string | null> {
  const row = await db
    .selectFrom("erasureSuppressions")
    .select("erasedAt")
    .where("emailHmac", "=", suppressionKey(secret, email))
    .executeTakeFirst();
  return row?.erasedAt ?? null;
}

export async function leadIdsOf(
  db: Kysely<Database> | Transaction<Database>,
  email: string,
): Promise<number[]> {
  const rows = await db
    .selectFrom("leads")
    .select("id")
    .where("emailKey", "=", contactKey(email))
    .orderBy("id")
    .execute();
  return rows.map((row) => Number(row.id));
}

export type ErasePerson = {
  email: string;
  reason: string;
  actor: Actor;
  clientAddress: string | null;
  secret: string;
  now?: Date;
  /**
   * What else is held on the person (their meetings: issue 34), erased in the same transaction
   * before their leads go (the composition root wires it; the leads feature knows no meetings).
   */
  alsoErase?: (
    trx: Transaction<Database>,
    person: { email: string; leadIds: number[]; now: Date },
  ) => Promise<unknown>;
};

/** What an erasure did: the person's leads that went, and the others that carried their address before. */
export type ErasedPerson = { leads: number; formerly: number };

/**
 * Erases every lead of the person with `email` through `eraseLead` (the leads feature's one erasure
 * path: `lead.deleted` webhooks, notes, events, history, queued messages), deletes the access-log
 * entries that name those leads, erases the address from leads that carried it before staff
 * replaced it (ADR 044: those leads stay, another person's), keeps the suppression record and logs
 * the erasure by count only. One transaction: all of it or nothing.
 */
export async function erasePerson(
  db: Kysely<Database>,
  eraseLead: (trx: Transaction<Database>, leadId: number, now: Date) => Promise<boolean>,
  { email, reason, actor, clientAddress, secret, now = new Date(), alsoErase }: ErasePerson,
): Promise<ErasedPerson> {
  return db.transaction().execute(async (trx) => {
    const ids = await leadIdsOf(trx, email);
    await alsoErase?.(trx, { email, leadIds: ids, now });
    for (const id of ids) await eraseLead(trx, id, now);
    if (ids.length > 0) await trx.deleteFrom("accessLog").where("leadId", "in", ids).execute();
    // After the person's own leads: what is left carrying the address is other people's leads.
    const formerly = await eraseFormerEmail(trx, email);
    const key = suppressionKey(secret, email);
    await trx.deleteFrom("erasureSuppressions").where("emailHmac", "=", key).execute();
    await trx
      .insertInto("erasureSuppressions")
      .values({ emailHmac: key, erasedAt: now.toISOString(), reason: reason.slice(0, 200) })
      .execute();
    await recordAccess(
      trx,
      { action: "person_erased", actor, detail: { leads: ids.length, formerly }, clientAddress },
      now,
    );
    return { leads: ids.length, formerly };
  });
}
