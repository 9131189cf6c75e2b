import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";

// The record of who did what to which staff account, and when (issue 10): shown on the staff page.

export const STAFF_ACTIONS = [
  "created",
  "disabled",
  "enabled",
  "password_reset",
  "link_issued",
  "link_used",
  "signed_out",
  "two_factor_reset",
  "role_changed",
  "code_step_reopened",
] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];

/** Who acted: a signed-in admin, the account's owner (using a link), or the operator's command line. */
export type StaffActor = { id: number | null; username: string };

/** `npm run admin:create` / `admin:set-password`: an operator on the server, not an account. */
export const COMMAND_LINE_ACTOR: StaffActor = { id: null, username: "command line" };

export type StaffEvent = {
  id: number;
  userId: number;
  username: string;
  action: StaffAction;
  actorUsername: string;
  createdAt: string;
};

export async function recordStaffEvent(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  action: StaffAction,
  actor: StaffActor,
  now = new Date(),
  /** Facts for the access log only (e.g. a role change's from and to); never personal data. */
  detail?: Record<string, string>,
): Promise<void> {
  await db
    .insertInto("staffEvents")
    .values({
      userId,
      action,
      actorUserId: actor.id,
      actorUsername: actor.username,
      createdAt: now.toISOString(),
    })
    .execute();
  // The same act in the access log, which keeps it ACCESS_LOG_DAYS with everything else staff did.
  const subject = await db.selectFrom("users").select("username").where("id", "=", userId).executeTakeFirst();
  await recordAccess(
    db,
    {
      action: `staff_${action}`,
      actor,
      subject: subject ? { id: userId, username: subject.username } : null,
      detail,
    },
    now,
  );
}

const isStaffAction = (value: string): value is StaffAction =>
  (STAFF_ACTIONS as readonly string[]).includes(value);

/** The most recent events, newest first. */
export async function listStaffEvents(db: Kysely<Database>, limit = 20): Promise<StaffEvent[]> {
  const rows = await db
    .selectFrom("staffEvents")
    .innerJoin("users", "users.id", "staffEvents.userId")
    .select([
      "staffEvents.id",
      "staffEvents.userId",
      "users.username",
      "staffEvents.action",
      "staffEvents.actorUsername",
      "staffEvents.createdAt",
    ])
    .orderBy("staffEvents.createdAt", "desc")
    .orderBy("staffEvents.id", "desc")
    .limit(limit)
    .execute();
  return rows.flatMap((row) =>
    isStaffAction(row.action)
      ? [
          {
            id: Number(row.id),
            userId: Number(row.userId),
            username: row.username,
            action: row.action,
            actorUsername: row.actorUsername,
            createdAt: row.createdAt,
          },
        ]
      : [],
  );
}
