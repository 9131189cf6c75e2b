import { beforeAll, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { answerSlotQuery, SLOT_QUERY_MESSAGES } from "./slot-query.server.ts";

// Monday 7 December 2026, 08:00 London.
const NOW = Date.parse("2026-12-07T08:00:00Z");

describeEachDatabase("GET /api/meetings/slots", (use) => {
  const services = (limit = 0) => ({
    database: use(),
    slotQueries: createRateLimiter(use().db, { limit, windowMs: 600_000 }),
    busyTimes: async () => [],
    now: () => NOW,
  });
  const ask = (query: string, limit = 0, address = "198.51.100.7") =>
    answerSlotQuery(new URLSearchParams(query), address, services(limit));

  beforeAll(async () => {
    await createUser(use().db, { username: "ada", password: "a long enough passphrase", role: "sales" });
  });

  it("answers the open times in UTC, no host named, for the visitor's days", async () => {
    const answer = await ask("type=demo&from=2026-12-07&days=1");
    expect(answer.status).toBe(200);
    const body = answer.body as { timeZone: string; slots: { start: string; end: string }[] };
    expect(body.timeZone).toBe("Europe/London");
    expect(body.slots[0]).toEqual({ start: "2026-12-07T10:00:00.000Z", end: "2026-12-07T10:30:00.000Z" });
    expect(body.slots.at(-1)?.start).toBe("2026-12-07T16:30:00.000Z");
    expect(JSON.stringify(body)).not.toContain("ada");
    // A visitor in New York asking for their Monday: its 24 hours run from 05:00 UTC to 05:00 UTC on
    // Tuesday, so nothing of London's Tuesday (09:00 UTC) is in it.
    const newYork = (await ask("type=investor&from=2026-12-07&days=1&timeZone=America/New_York")).body as {
      timeZone: string;
      slots: { start: string }[];
    };
    expect(newYork.timeZone).toBe("America/New_York");
    expect(newYork.slots.map((slot) => slot.start)).toEqual(body.slots.map((slot) => slot.start));
    const fiveDays = (await ask("type=demo&days=5")).body as { slots: unknown[] };
    expect(fiveDays.slots).toHaveLength(14 + 16 * 4);
  });

  it.each([
    ["type=lunch", SLOT_QUERY_MESSAGES.type],
    ["type=demo&from=2026-13-01", SLOT_QUERY_MESSAGES.from],
    ["type=demo&from=yesterday", SLOT_QUERY_MESSAGES.from],
    ["type=demo&days=0", SLOT_QUERY_MESSAGES.days],
    ["type=demo&days=32", SLOT_QUERY_MESSAGES.days],
    ["type=demo&days=1e3", SLOT_QUERY_MESSAGES.days],
    ["type=demo&timeZone=Mars/Olympus", SLOT_QUERY_MESSAGES.timeZone],
    [`type=demo&timeZone=${"A".repeat(5000)}`, SLOT_QUERY_MESSAGES.timeZone],
  ])("refuses %s with 400 and says why", async (query, message) => {
    expect(await ask(query)).toEqual({ status: 400, body: { message } });
  });

  it("limits one address's queries like the forms, and not another's", async () => {
    const answers = [];
    for (let i = 0; i < 200; i++) answers.push(await ask("type=demo&days=1", 12, "203.0.113.9"));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(12);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(188);
    expect(refused[0]?.headers?.["Retry-After"]).toMatch(/^\d+$/);
    expect(refused[0]?.body).toEqual({ message: "Too many requests. Please try again in 10 minutes." });
    expect((await ask("type=demo&days=1", 12, "203.0.113.10")).status).toBe(200);
  });
});
