import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { parseListQuery } from "./lead-admin-http.server.ts";
import type { Actor } from "./lead-events.server.ts";
import { SAVED_VIEW_KEYS, SAVED_VIEW_NAME_MAX } from "./ui/saved-view-words.ts";

// Views a team keeps on the lead list (issue 23): the list's filters and sort under a name, personal
// or shared with the team. Stored as the query string the dashboard's URL holds, so opening one is a
// plain link and a view can never hold anything the list itself would refuse.

/** One person keeps at most this many views (a form posted in a loop cannot fill the table). */
export const MAX_VIEWS_PER_USER = 50;
const MAX_QUERY_LENGTH = 1000;

export type SavedView = {
  id: number;
  name: string;
  /** The list's query string, e.g. `status=new&owner=me&sort=company&order=asc`. */
  query: string;
  shared: boolean;
  ownerName: string;
  /** The signed-in person's own view (they may delete it). */
  mine: boolean;
};

/** Keeps the list's view parameters only (never `page`, `notice` or anything else), in a fixed order. */
export function viewQueryOf(raw: string): string {
  const given = new URLSearchParams(raw);
  const kept = new URLSearchParams();
  for (const key of SAVED_VIEW_KEYS) {
    const value = given.get(key);
    if (value) kept.set(key, value);
  }
  return kept.toString();
}

export const SavedViewSchema = z.object({
  name: z
    .string({ error: "Give the view a name." })
    .refine((value) => !breaksTextRule(value, "one-line"), "The name may not contain control characters.")
    .trim()
    .min(1, "Give the view a name.")
    .max(SAVED_VIEW_NAME_MAX, `A view's name may have at most ${SAVED_VIEW_NAME_MAX} characters.`),
  scope: z.enum(["personal", "team"], "Choose whether the view is yours or the team's."),
  query: z
    .string()
    .max(MAX_QUERY_LENGTH, "This view has too many filters to save.")
    .transform(viewQueryOf)
    .refine(
      (query) => parseListQuery(new URL(`http://list.invalid/?${query}`)).ok,
      "These filters are not valid; change them and save again.",
    ),
});

export type SavedViewInput = z.infer<typeof SavedViewSchema>;

export class TooManyViewsError extends Error {
  constructor() {
    super(`You keep ${MAX_VIEWS_PER_USER} views already; delete one first.`);
  }
}

/** The views `user` sees: their own and the team's, team views first, each group by name. */
export async function listSavedViews(db: Kysely<Database>, user: Pick<Actor, "id">): Promise<SavedView[]> {
  const rows = await db
    .selectFrom("savedViews")
    .innerJoin("users", "users.id", "savedViews.ownerUserId")
    .select([
      "savedViews.id",
      "savedViews.name",
      "savedViews.query",
      "savedViews.shared",
      "savedViews.ownerUserId",
      "users.username",
    ])
    .where((eb) => eb.or([eb("savedViews.ownerUserId", "=", user.id), eb("savedViews.shared", "=", 1)]))
    .orderBy("savedViews.shared", "desc")
    .orderBy("savedViews.name")
    .orderBy("savedViews.id")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    query: row.query,
    shared: Number(row.shared) === 1,
    ownerName: row.username,
    mine: Number(row.ownerUserId) === user.id,
  }));
}

/**
 * Saves `input` as `user`'s view. Saving under a name they already use replaces that view's
 * filters and scope (saving again is how a view is updated). Throws TooManyViewsError past the cap.
 */
export async function saveView(
  db: Kysely<Database>,
  user: Actor,
  input: SavedViewInput,
  now = new Date(),
): Promise<SavedView> {
  return db.transaction().execute(async (trx) => {
    const shared = input.scope === "team" ? 1 : 0;
    const existing = await trx
      .selectFrom("savedViews")
      .select("id")
      .where("ownerUserId", "=", user.id)
      .where("name", "=", input.name)
      .executeTakeFirst();
    let id: number;
    if (existing) {
      id = Number(existing.id);
      await trx.updateTable("savedViews").set({ query: input.query, shared }).where("id", "=", id).execute();
    } else {
      const count = await trx
        .selectFrom("savedViews")
        .select((eb) => eb.fn.countAll().as("count"))
        .where("ownerUserId", "=", user.id)
        .executeTakeFirstOrThrow();
      if (Number(count.count) >= MAX_VIEWS_PER_USER) throw new TooManyViewsError();
      const row = await trx
        .insertInto("savedViews")
        .values({
          ownerUserId: user.id,
          name: input.name,
          query: input.query,
          shared,
          createdAt: now.toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      id = Number(row.id);
    }
    return {
      id,
      name: input.name,
      query: input.query,
      shared: shared === 1,
      ownerName: user.username,
      mine: true,
    };
  });
}

/** Deletes one of `user`'s own views; false when there is no such view of theirs. */
export async function deleteView(
  db: Kysely<Database>,
  user: Pick<Actor, "id">,
  id: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom("savedViews")
    .where("id", "=", id)
    .where("ownerUserId", "=", user.id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
