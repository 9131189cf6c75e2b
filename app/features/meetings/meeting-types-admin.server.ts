import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { firstErrorPerField } from "#app/lib/field-errors.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { listHostAccounts } from "./availability-admin.server.ts";
import { MEETING_DURATIONS, MEETING_TYPE_SLUG } from "./booking-types.ts";
import { findMeetingType, type MeetingType } from "./meeting-store.server.ts";

// Issue 34: the kinds of meeting prospects book ("Product demo" and "Investor call" out of the box),
// changed by an admin on /admin/meeting-types and through GET/POST/PATCH /api/admin/meeting-types.
// A change applies to new bookings: meetings already booked keep their host, time and length.

type Db = Kysely<Database>;

export const MAX_MEETING_TYPES = 20;

export const MEETING_TYPE_MESSAGES = {
  slug: "The link name is 1 to 40 lower-case letters, digits and hyphens, such as site-visit.",
  slugTaken: "Another meeting type has that link name.",
  name: "Enter a name of 1 to 60 characters on one line.",
  duration: `Choose a length of ${MEETING_DURATIONS.join(", ")} minutes.`,
  hostChoice: "Choose how the host is picked: round_robin or owner_first.",
  hosts: "Each host must be an enabled admin or sales account.",
  active: "active is true or false.",
  empty: "Send at least one field to change.",
  tooMany: `At most ${MAX_MEETING_TYPES} meeting types.`,
  notFound: "No meeting type has that id.",
} as const;

const name = z
  .string(MEETING_TYPE_MESSAGES.name)
  .trim()
  .min(1, MEETING_TYPE_MESSAGES.name)
  .max(60, MEETING_TYPE_MESSAGES.name)
  .refine((value) => !breaksTextRule(value, "one-line-no-bidi"), MEETING_TYPE_MESSAGES.name);

const fields = {
  name,
  durationMinutes: z
    .number(MEETING_TYPE_MESSAGES.duration)
    .refine(
      (value) => (MEETING_DURATIONS as readonly number[]).includes(value),
      MEETING_TYPE_MESSAGES.duration,
    ),
  hostChoice: z.enum(["round_robin", "owner_first"], MEETING_TYPE_MESSAGES.hostChoice),
  /** null: every admin and sales account, now and later. */
  hostIds: z
    .array(
      z.number(MEETING_TYPE_MESSAGES.hosts).int(MEETING_TYPE_MESSAGES.hosts),
      MEETING_TYPE_MESSAGES.hosts,
    )
    .max(200, MEETING_TYPE_MESSAGES.hosts)
    .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
    .nullable(),
  active: z.boolean(MEETING_TYPE_MESSAGES.active),
};

const createSchema = z
  .object({
    slug: z.string(MEETING_TYPE_MESSAGES.slug).regex(MEETING_TYPE_SLUG, MEETING_TYPE_MESSAGES.slug),
    ...fields,
    hostIds: fields.hostIds.default(null),
    active: fields.active.default(true),
  })
  .strict();

const patchSchema = z
  .object({
    name: fields.name.optional(),
    durationMinutes: fields.durationMinutes.optional(),
    hostChoice: fields.hostChoice.optional(),
    hostIds: fields.hostIds.optional(),
    active: fields.active.optional(),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), MEETING_TYPE_MESSAGES.empty);

export type MeetingTypeView = MeetingType & { hosts: { id: number; username: string }[] | null };
export type MeetingTypeFailure = { kind: "invalid"; errors: Record<string, string> } | { kind: "not-found" };

/** Field → first message; an unknown key is named by itself (the link name is fixed once made). */
const errorsOf = (error: z.ZodError) =>
  firstErrorPerField(error, {
    key: (issue) => String((issue.code === "unrecognized_keys" ? issue.keys[0] : issue.path[0]) ?? "form"),
  });

function toRow(type: MeetingType) {
  return {
    name: type.name,
    durationMinutes: type.durationMinutes,
    hostChoice: type.hostChoice,
    hostIds: type.hostIds === null ? null : JSON.stringify(type.hostIds),
    active: type.active ? 1 : 0,
  };
}

/** Every type with its hosts by name (null: everyone who hosts), oldest first. */
export async function listMeetingTypes(db: Db): Promise<MeetingTypeView[]> {
  const [rows, accounts] = await Promise.all([
    db.selectFrom("meetingTypes").select("slug").orderBy("id").execute(),
    listHostAccounts(db),
  ]);
  const types = await Promise.all(rows.map((row) => findMeetingType(db, row.slug)));
  return types.flatMap((type) =>
    type
      ? [
          {
            ...type,
            hosts:
              type.hostIds === null ? null : accounts.filter((account) => type.hostIds?.includes(account.id)),
          },
        ]
      : [],
  );
}

async function unknownHosts(db: Db, hostIds: number[] | null | undefined): Promise<boolean> {
  if (!hostIds || hostIds.length === 0) return false;
  const known = new Set((await listHostAccounts(db)).map((account) => account.id));
  return hostIds.some((id) => !known.has(id));
}

export async function createMeetingType(
  db: Db,
  input: unknown,
  now = new Date(),
): Promise<MeetingTypeView | MeetingTypeFailure> {
  const parsed = createSchema.safeParse(input);
  if (!parsed.success) return { kind: "invalid", errors: errorsOf(parsed.error) };
  const type = parsed.data;
  if (await unknownHosts(db, type.hostIds))
    return { kind: "invalid", errors: { hostIds: MEETING_TYPE_MESSAGES.hosts } };
  const count = await db
    .selectFrom("meetingTypes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_MEETING_TYPES)
    return { kind: "invalid", errors: { form: MEETING_TYPE_MESSAGES.tooMany } };
  const inserted = await db
    .insertInto("meetingTypes")
    .values({
      slug: type.slug,
      ...toRow({ ...type, id: 0 }),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .onConflict((conflict) => conflict.column("slug").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return { kind: "invalid", errors: { slug: MEETING_TYPE_MESSAGES.slugTaken } };
  return (await meetingTypeById(db, inserted.id)) ?? { kind: "not-found" };
}

export async function meetingTypeById(db: Db, id: number): Promise<MeetingTypeView | null> {
  // At most MAX_MEETING_TYPES: the list, with its hosts' names, is as cheap as one row.
  return (await listMeetingTypes(db)).find((type) => type.id === id) ?? null;
}

export async function updateMeetingType(
  db: Db,
  id: number,
  input: unknown,
  now = new Date(),
): Promise<MeetingTypeView | MeetingTypeFailure> {
  const current = await meetingTypeById(db, id);
  if (!current) return { kind: "not-found" };
  const parsed = patchSchema.safeParse(input);
  if (!parsed.success) return { kind: "invalid", errors: errorsOf(parsed.error) };
  const patch = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined));
  if (await unknownHosts(db, parsed.data.hostIds))
    return { kind: "invalid", errors: { hostIds: MEETING_TYPE_MESSAGES.hosts } };
  const next: MeetingType = { ...current, ...patch };
  await db
    .updateTable("meetingTypes")
    .set({ ...toRow(next), updatedAt: now.toISOString() })
    .where("id", "=", id)
    .execute();
  return (await meetingTypeById(db, id)) ?? { kind: "not-found" };
}
