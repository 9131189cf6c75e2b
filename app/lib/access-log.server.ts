import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { ACCESS_KINDS, type AccessAction, type AccessKind } from "./access-log.ts";
import { maskAddress } from "./mask-address.ts";

export {
  ACCESS_ACTIONS,
  ACCESS_KINDS,
  type AccessAction,
  type AccessKind,
  isAccessKind,
} from "./access-log.ts";

// The staff access log (issue 13): who signed in or failed to, who changed which account or
// session, who exported which leads and how many, who erased which lead. Admins read it at
// /admin/access-log; rows older than ACCESS_LOG_DAYS are deleted. Several features write it, so it
// lives here. It names leads by id only and keeps networks, not addresses.

type Db = Kysely<Database> | Transaction<Database>;
type Account = { id: number | null; username: string };

export type AccessRecord = {
  action: AccessAction;
  actor?: Account | null;
  subject?: { id: number; username: string } | null;
  leadId?: number | null;
  /** A few facts (a filter, a count); no personal data. */
  detail?: Record<string, string | number | boolean>;
  /** The client address, stored as its network only. */
  clientAddress?: string | null;
};

export async function recordAccess(db: Db, record: AccessRecord, now = new Date()): Promise<void> {
  await db
    .insertInto("accessLog")
    .values({
      occurredAt: now.toISOString(),
      action: record.action,
      actorUserId: record.actor?.id ?? null,
      actorUsername: record.actor?.username ?? null,
      subjectUserId: record.subject?.id ?? null,
      subjectUsername: record.subject?.username ?? null,
      leadId: record.leadId ?? null,
      detail: record.detail ? JSON.stringify(record.detail) : null,
      network: record.clientAddress ? maskAddress(record.clientAddress) : null,
    })
    .execute();
}

export type AccessEntry = {
  id: number;
  occurredAt: string;
  action: AccessAction;
  actor: string | null;
  subject: string | null;
  leadId: number | null;
  detail: Record<string, string | number | boolean>;
  network: string | null;
};

export const ACCESS_PAGE_SIZE = 50;

/** A page of the log, newest first; `before` (an entry id) pages back. */
export async function listAccessLog(
  db: Kysely<Database>,
  { kind, before, limit = ACCESS_PAGE_SIZE }: { kind?: AccessKind; before?: number; limit?: number } = {},
): Promise<{ entries: AccessEntry[]; nextBefore: number | null }> {
  let query = db.selectFrom("accessLog").selectAll();
  if (kind) query = query.where("action", "in", [...ACCESS_KINDS[kind]]);
  if (before !== undefined) query = query.where("id", "<", before);
  const rows = await query
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const entries = rows.slice(0, limit).map((row) => ({
    id: Number(row.id),
    occurredAt: row.occurredAt,
    action: row.action as AccessAction,
    actor: row.actorUsername,
    subject: row.subjectUsername,
    leadId: row.leadId === null ? null : Number(row.leadId),
    detail: parseDetail(row.detail),
    network: row.network,
  }));
  return { entries, nextBefore: rows.length > limit ? (entries.at(-1)?.id ?? null) : null };
}

function parseDetail(text: string | null): AccessEntry["detail"] {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as AccessEntry["detail"]) : {};
  } catch {
    return {};
  }
}

/** Deletes entries older than `days` (the daily housekeeping); how many went. */
export async function pruneAccessLog(db: Kysely<Database>, days: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const result = await db.deleteFrom("accessLog").where("occurredAt", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
