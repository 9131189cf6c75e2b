import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { describeEachDatabase, TEST_POSTGRES_URL } from "../../../tests/support/databases.ts";
import {
  createDailySalts,
  SALT_LIFETIME_MS,
  utcDay,
  VISITOR_ID_LENGTH,
  visitorId,
} from "./daily-salt.server.ts";

const visitor = {
  clientAddress: "203.0.113.7",
  userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36",
  host: "www.example.co.uk",
};

/** A second app instance on the same database: the same SQLite file, or the same PostgreSQL schema. */
async function openSecondInstance(database: AppDatabase): Promise<AppDatabase> {
  if (database.dialect === "sqlite") return openDatabase(database.description.replace(/^SQLite /, ""));
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("no current schema");
  return openDatabase(TEST_POSTGRES_URL, { postgresSchema: schema, poolSize: 2 });
}

/** A clock the test moves by hand. */
function clock(start: string) {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    advance(ms: number) {
      at += ms;
    },
  };
}

describeEachDatabase("daily salts and visitor ids", (use) => {
  afterEach(async () => {
    await use().db.deleteFrom("analyticsSalts").execute();
  });

  it("gives the same visitor the same id all day, and a different one the next day", async () => {
    const time = clock("2026-11-25T08:00:00.000Z");
    const salts = createDailySalts(use().db, time.now);
    const morning = visitorId(await salts.get(utcDay(time.now())), visitor);
    time.advance(14 * 3_600_000); // 22:00, same UTC day
    const evening = visitorId(await salts.get(utcDay(time.now())), visitor);
    expect(evening).toBe(morning);
    expect(morning).toMatch(new RegExp(`^[0-9a-f]{${VISITOR_ID_LENGTH}}$`));

    time.advance(3 * 3_600_000); // 01:00 the next day
    const nextDay = visitorId(await salts.get(utcDay(time.now())), visitor);
    expect(nextDay).not.toBe(morning);
    // Another visitor the same day is someone else; so is the same one on another host.
    const salt = await salts.get(utcDay(time.now()));
    expect(visitorId(salt, { ...visitor, clientAddress: "203.0.113.8" })).not.toBe(nextDay);
    expect(visitorId(salt, { ...visitor, host: "clausebridge.example" })).not.toBe(nextDay);
  });

  it("keeps one random salt per day in the database, never the address", async () => {
    const time = clock("2026-11-25T08:00:00.000Z");
    const salts = createDailySalts(use().db, time.now);
    const salt = await salts.get("2026-11-25");
    expect(salt).toMatch(/^[0-9a-f]{64}$/);
    const rows = await use().db.selectFrom("analyticsSalts").selectAll().execute();
    expect(rows).toEqual([{ day: "2026-11-25", salt, createdAt: "2026-11-25T08:00:00.000Z" }]);
    expect(salts.cached("2026-11-25")).toBe(salt);
    expect(salts.cached("2026-11-26")).toBeUndefined();
  });

  it("deletes a salt once it is older than 48 hours, so its ids can no longer be recomputed", async () => {
    const time = clock("2026-11-25T00:00:05.000Z");
    const salts = createDailySalts(use().db, time.now);
    const first = await salts.get("2026-11-25");
    time.advance(24 * 3_600_000);
    await salts.get("2026-11-26");
    time.advance(23 * 3_600_000); // 47 h after the first salt: still there
    await salts.prune();
    expect(await days(use())).toEqual(["2026-11-25", "2026-11-26"]);

    time.advance(2 * 3_600_000); // 49 h: loading the new day's salt deletes it
    await salts.get("2026-11-27");
    expect(await days(use())).toEqual(["2026-11-26", "2026-11-27"]);
    expect(salts.cached("2026-11-25")).toBeUndefined();
    // Even asked for again, the old day gets a new salt: the old ids are gone for good.
    expect(await salts.get("2026-11-25")).not.toBe(first);

    time.advance(SALT_LIFETIME_MS + 1000);
    await salts.prune();
    expect(await days(use())).toEqual([]);
  });

  it("lets two instances share one salt per day, whichever creates it", async () => {
    const second = await openSecondInstance(use());
    try {
      const now = () => new Date("2026-11-25T12:00:00.000Z");
      const one = createDailySalts(use().db, now);
      const two = createDailySalts(second.db, now);
      const [a, b] = await Promise.all([one.get("2026-11-25"), two.get("2026-11-25")]);
      expect(a).toBe(b);
      expect(visitorId(a, visitor)).toBe(visitorId(b, visitor));
      expect(await days(use())).toEqual(["2026-11-25"]);
      // An instance started later reads the same salt.
      expect(await createDailySalts(second.db, now).get("2026-11-25")).toBe(a);
    } finally {
      await second.close();
    }
  });

  it("asks the database once for concurrent requests of the same day", async () => {
    const salts = createDailySalts(use().db, () => new Date("2026-11-25T12:00:00.000Z"));
    const all = await Promise.all(Array.from({ length: 20 }, () => salts.get("2026-11-25")));
    expect(new Set(all).size).toBe(1);
  });
});

async function days(database: AppDatabase): Promise<string[]> {
  const rows = await database.db.selectFrom("analyticsSalts").select("day").orderBy("day").execute();
  return rows.map((row) => row.day);
}
