import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { isTimeZone } from "#app/lib/time-zones.ts";
import { DEFAULT_TIME_ZONE } from "./booking-profile.ts";

/**
 * Each staff member's time zone (issue 35): their availability's, else the default one (the back
 * office's). The leads feature reads a task's due time in it through its port (leads-context).
 */
export async function staffTimeZones(
  db: Kysely<Database>,
  userIds: readonly number[],
): Promise<Map<number, string>> {
  const zones = new Map(userIds.map((id) => [id, DEFAULT_TIME_ZONE]));
  if (userIds.length === 0) return zones;
  const rows = await db
    .selectFrom("bookingProfiles")
    .select(["userId", "timeZone"])
    .where("userId", "in", [...new Set(userIds)])
    .execute();
  for (const row of rows) if (isTimeZone(row.timeZone)) zones.set(Number(row.userId), row.timeZone);
  return zones;
}
