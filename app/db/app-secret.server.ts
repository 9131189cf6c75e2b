import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

/**
 * The key that signs form time tokens and hashes client addresses. APP_SECRET wins when set;
 * otherwise one is generated on first start and kept in the database, so every instance sharing the
 * database agrees on it without configuration.
 */
export async function loadAppSecret(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const read = () =>
    db.selectFrom("appSettings").select("value").where("key", "=", "app_secret").executeTakeFirst();
  const existing = await read();
  if (existing) return existing.value;
  await db
    .insertInto("appSettings")
    .values({ key: "app_secret", value: randomBytes(32).toString("base64url") })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
  // Another instance may have won the race: use whatever is stored now.
  return (await read())?.value ?? "";
}
