import { beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import {
  countExpiredCodeFailures,
  pruneCodeFailures,
  secondsToEndOfDay,
  takeCodeFailure,
} from "./code-failures.server.ts";
import { createUser } from "./users.server.ts";

// Issue 32 point 3: the day a wrong code counts on is the UTC day, and the counts go after 30 days.

it("counts down to midnight UTC, whatever the server's zone", () => {
  expect(secondsToEndOfDay(new Date("2026-11-26T23:59:59.500Z"))).toBe(1);
  expect(secondsToEndOfDay(new Date("2026-11-26T00:00:00.000Z"))).toBe(86_400);
  expect(secondsToEndOfDay(new Date("2026-11-26T10:00:05.000Z"))).toBe(14 * 3600 - 5);
});

describeEachDatabase("wrong-code counts", (use) => {
  const db = () => use().db;
  beforeEach(async () => {
    await db().deleteFrom("codeFailures").execute();
  });

  it("counts per UTC day, stops at 20, and drops days older than 30", async () => {
    const user = await createUser(db(), {
      username: `codes-${Date.now().toString(36)}`,
      password: "a passphrase for codes",
      isAdmin: false,
    });
    const old = new Date("2026-10-20T23:30:00.000Z");
    expect(await takeCodeFailure(db(), user.id, old)).toBe(1);
    const day = new Date("2026-11-26T00:10:00.000Z");
    for (let n = 1; n <= 20; n++) expect(await takeCodeFailure(db(), user.id, day)).toBe(n);
    expect(await takeCodeFailure(db(), user.id, day)).toBeNull();
    // The next UTC day starts at 1, even 20 minutes later.
    expect(await takeCodeFailure(db(), user.id, new Date("2026-11-27T00:00:00.000Z"))).toBe(1);
    expect(await countExpiredCodeFailures(db(), day)).toBe(1);
    expect(await pruneCodeFailures(db(), day)).toBe(1);
    expect(await countExpiredCodeFailures(db(), day)).toBe(0);
    const days = await db().selectFrom("codeFailures").select("day").orderBy("day").execute();
    expect(days).toEqual([{ day: "2026-11-26" }, { day: "2026-11-27" }]);
  });
});
