import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { PAGE_SIZES } from "./ui/lead-list-url.ts";

// Issue 35: the lead list's rows per page, kept for each person (users.list_page_size, migration
// 039). The list's URL still says it when it names one (a bookmark, a shared view); without one the
// person's own choice applies, and the spec's 10 until they make one.

export type PageSize = (typeof PAGE_SIZES)[number];

export function isPageSize(value: unknown): value is PageSize {
  return typeof value === "number" && (PAGE_SIZES as readonly number[]).includes(value);
}

/** The rows per page this person chose, or null when they never chose (or it is no longer offered). */
export async function listPageSizeOf(db: Kysely<Database>, userId: number): Promise<PageSize | null> {
  const row = await db.selectFrom("users").select("listPageSize").where("id", "=", userId).executeTakeFirst();
  const size =
    row?.listPageSize === null || row?.listPageSize === undefined ? null : Number(row.listPageSize);
  return isPageSize(size) ? size : null;
}

/** Keeps `size` as this person's rows per page; one conditional update, nothing written when unchanged. */
export async function rememberListPageSize(
  db: Kysely<Database>,
  userId: number,
  size: PageSize,
): Promise<void> {
  await db
    .updateTable("users")
    .set({ listPageSize: size })
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("listPageSize", "is", null), eb("listPageSize", "<>", size)]))
    .execute();
}
