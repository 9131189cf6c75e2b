import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { formatKeysetCursor, parseKeysetCursor } from "#app/lib/keyset-cursor.ts";
import { countMatchingLeadsByStatus, filterLeads, type LeadFilter } from "./lead-admin.server.ts";
import { LEAD_STATUSES, type LeadStatus } from "./lead-repository.server.ts";

// Issue 35: the leads by status, one column each (New, Contacted, Qualified, Unqualified, Customer),
// for the list's filters (search, owner, type, dates, channel, campaign, spam). Each column is paged
// by keyset, newest first: `created_at, id` below the last card shown, so a column's next page costs
// the same at page 1 and page 500 (the index (is_spam, status, created_at) of migration 002; SQLite's
// rowid and PostgreSQL's incremental sort finish the order by id). The counts come from lead_counts
// when the filter allows, in one grouped query (lead-admin.server.ts countMatchingLeadsByStatus).

/** Cards a column shows at first and adds with each "Show more". */
export const BOARD_PAGE = 20;

export const BOARD_STATUSES: readonly LeadStatus[] = LEAD_STATUSES;

/** Where a column's next page starts: just after this card in the column's order. */
export type BoardCursor = { createdAt: string; id: number };

/** `2026-11-29T05:10:22.000Z_123`: the URL's `after`, or null when it is not one. */
export function parseCursor(raw: string | null | undefined): BoardCursor | null {
  const cursor = parseKeysetCursor(raw);
  return cursor ? { createdAt: cursor.at, id: cursor.id } : null;
}

export function formatCursor(cursor: BoardCursor): string {
  return formatKeysetCursor({ at: cursor.createdAt, id: cursor.id });
}

/** A card: who, for which company, whose, since when. */
export type BoardCard = {
  id: number;
  fullName: string;
  company: string;
  status: LeadStatus;
  ownerId: number | null;
  ownerName: string | null;
  createdAt: string;
};

export type BoardColumnPage = { status: LeadStatus; cards: BoardCard[]; next: BoardCursor | null };

/** The board's filter: the list's, without a status (each column is one) or ticked ids. */
export type BoardFilter = Omit<LeadFilter, "status" | "ids">;

/** One column's page of cards, newest first, starting after `after` (the first page when null). */
export async function boardColumn(
  db: Kysely<Database>,
  filter: BoardFilter,
  status: LeadStatus,
  after: BoardCursor | null = null,
  limit = BOARD_PAGE,
): Promise<BoardColumnPage> {
  let query = filterLeads(
    db
      .selectFrom("leads")
      .leftJoin("users", "users.id", "leads.ownerId")
      .select([
        "leads.id",
        "leads.fullName",
        "leads.company",
        "leads.status",
        "leads.ownerId",
        "leads.createdAt",
        "users.username as ownerName",
      ]),
    { ...filter, status },
  );
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb("leads.createdAt", "<", after.createdAt),
        eb.and([eb("leads.createdAt", "=", after.createdAt), eb("leads.id", "<", after.id)]),
      ]),
    );
  const rows = await query
    .orderBy("leads.createdAt", "desc")
    .orderBy("leads.id", "desc")
    .limit(limit + 1)
    .execute();
  const cards = rows.slice(0, limit).map(
    (row): BoardCard => ({
      id: Number(row.id),
      fullName: row.fullName,
      company: row.company,
      status: row.status as LeadStatus,
      ownerId: row.ownerId === null ? null : Number(row.ownerId),
      ownerName: row.ownerName ?? null,
      createdAt: row.createdAt,
    }),
  );
  const last = cards.at(-1);
  return {
    status,
    cards,
    next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null,
  };
}

/** How many leads each column holds for the filter: one grouped query. */
export function boardCounts(db: Kysely<Database>, filter: BoardFilter): Promise<Record<LeadStatus, number>> {
  return countMatchingLeadsByStatus(db, filter);
}

/**
 * The whole board: each column's first page (or, for `more.status`, its page after `more.after`)
 * and every column's count.
 */
export async function loadBoard(
  db: Kysely<Database>,
  filter: BoardFilter,
  more: { status: LeadStatus; after: BoardCursor } | null = null,
): Promise<{ columns: (BoardColumnPage & { count: number })[] }> {
  const [pages, counts] = await Promise.all([
    Promise.all(
      BOARD_STATUSES.map((status) =>
        boardColumn(db, filter, status, more?.status === status ? more.after : null),
      ),
    ),
    boardCounts(db, filter),
  ]);
  return { columns: pages.map((page) => ({ ...page, count: counts[page.status] })) };
}
