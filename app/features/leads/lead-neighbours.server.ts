import { type Kysely, sql } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { countMatchingLeads, filterLeads, type LeadListQuery, orderLeads } from "./lead-admin.server.ts";
import { LEAD_STATUSES } from "./lead-repository.server.ts";

// Issue 35: the lead before and after this one in the list it was opened from (same filters, search,
// sort), found from the lead's own sort key: one indexed keyset query each way with LIMIT 1, never
// the list itself, so it costs the same at 100,000 leads as at ten (the whole list by name, company
// or status: migration 040's indexes).

export type Neighbours = { previous: number | null; next: number | null; total: number };

type Current = { id: number; createdAt: string; fullName: string; company: string; status: string };

export async function leadNeighbours(
  db: Kysely<Database>,
  query: Omit<LeadListQuery, "page" | "pageSize">,
  lead: Current,
): Promise<Neighbours> {
  const sort = query.sort ?? "createdAt";
  const order = query.order ?? (sort === "createdAt" ? "desc" : "asc");
  const oneStatus = query.status !== undefined;
  const collate = isPostgres(db) ? sql.raw(' collate "C"') : sql.raw("");
  const row = await db
    .selectFrom("leads")
    .select(["fullNameKey", "companyKey", "nextTaskDueAt"])
    .where("id", "=", lead.id)
    .executeTakeFirst();
  // The row's sort key, as orderLeads orders by it, and the lead's value of it.
  const key =
    sort === "createdAt"
      ? { column: sql`leads.created_at`, value: sql`${lead.createdAt}` }
      : sort === "fullName"
        ? { column: sql`leads.full_name_key${collate}`, value: sql`${row?.fullNameKey ?? ""}${collate}` }
        : sort === "company"
          ? { column: sql`leads.company_key${collate}`, value: sql`${row?.companyKey ?? ""}${collate}` }
          : sort === "nextStep"
            ? nextStepKey(order, row?.nextTaskDueAt ?? null, collate)
            : oneStatus
              ? null
              : {
                  column: sql`case leads.status ${sql.join(
                    LEAD_STATUSES.map((status, index) => sql`when ${sql.lit(status)} then ${sql.lit(index)}`),
                    sql` `,
                  )} end`,
                  value: sql`${LEAD_STATUSES.indexOf(lead.status as (typeof LEAD_STATUSES)[number])}`,
                };
  const step = (forward: boolean) => {
    // Forward in a descending list is towards smaller keys.
    const after = forward === (order === "asc");
    const comparison = sql.raw(after ? ">" : "<");
    const condition = key
      ? sql<boolean>`(${key.column}, leads.id) ${comparison} (${key.value}, ${lead.id})`
      : sql<boolean>`leads.id ${comparison} ${lead.id}`;
    const direction = forward ? order : order === "asc" ? "desc" : "asc";
    const matching = filterLeads(db.selectFrom("leads").select("leads.id"), query).where(condition);
    // Backwards is the list's own key read the other way: orderLeads in the other direction would
    // change the key itself for the Next step order (where leads without a task sort last).
    const ordered = key
      ? matching
          .orderBy(sql`${key.column} ${sql.raw(direction)}`)
          .orderBy(sql`leads.id ${sql.raw(direction)}`)
      : orderLeads(db, matching, sort, direction, oneStatus);
    return ordered.limit(1).executeTakeFirst();
  };
  const [previous, next, total] = await Promise.all([step(false), step(true), countMatchingLeads(db, query)]);
  return {
    previous: previous ? Number(previous.id) : null,
    next: next ? Number(next.id) : null,
    total,
  };
}

/**
 * The Next step order's key as orderLeads sorts by it: the earliest open task's due time, leads
 * without one last either way (the missing value is "~" ascending, "" descending), so the keyset
 * step compares the very expression migration 037's indexes hold.
 */
function nextStepKey(order: "asc" | "desc", dueAt: string | null, collate: ReturnType<typeof sql.raw>) {
  const missing = order === "asc" ? "~" : "";
  return {
    column: sql`(coalesce(next_task_due_at, ${sql.lit(missing)})${collate})`,
    value: sql`${dueAt ?? missing}${collate}`,
  };
}
