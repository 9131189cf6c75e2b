import { expect, it } from "vitest";
import { describeEachDatabase } from "../../../../tests/support/databases.ts";
import { PERIOD_MS } from "./watch-schedule.ts";
import { changeWatch, createWatch } from "./watch-service.server.ts";
import { deleteWatch, findWatch, listWatches } from "./watch-store.server.ts";

// Adding and changing watches on both databases: the target policy, the checks this server offers,
// who gets the alerts, and the schedule that follows the period.

const RULES = { allowPrivate: false, checks: ["security", "performance"] as const };

describeEachDatabase("watches, added and changed", (use) => {
  it("refuses a private address unless the audits may reach one, and a check this server lacks", async () => {
    const db = use().db;
    const input = {
      url: "http://10.1.2.3/latest",
      checks: ["security"],
      every: "daily",
      recipients: "a@example.com",
    };
    const refused = await createWatch(db, input, "sam", RULES);
    expect(refused).toMatchObject({ ok: false, status: 400 });
    expect(refused.ok ? "" : refused.errors.url).toMatch(
      /^Refused: 10\.1\.2\.3 is .*AUDIT_ALLOW_PRIVATE_TARGETS/,
    );
    const local = await createWatch(db, { ...input, url: "http://localhost:8080/" }, "sam", RULES);
    expect(local.ok ? "" : local.errors.url).toMatch(/AUDIT_ALLOW_PRIVATE_TARGETS/);
    expect((await createWatch(db, input, "sam", { ...RULES, allowPrivate: true })).ok).toBe(true);

    const lab = await createWatch(
      db,
      { ...input, url: "https://example.com/", checks: ["lab"] },
      "sam",
      RULES,
    );
    expect(lab.ok ? "" : lab.errors.checks).toBe(
      "This server does not offer the lab check; choose from: security audit, performance check.",
    );
  });

  it("sends the alerts to the creator when their user name is an address, else asks for one", async () => {
    const db = use().db;
    const input = { url: "https://example.com/", checks: ["performance"], every: "weekly" };
    const asked = await createWatch(db, input, "sam", RULES);
    expect(asked.ok ? {} : asked.errors).toEqual({
      recipients: "Enter at least one email address for the alerts.",
    });
    const mine = await createWatch(db, input, "Sam@Example.com", RULES);
    expect(mine.ok && mine.watch.recipients).toEqual(["sam@example.com"]);
    const listed = await createWatch(
      db,
      { ...input, recipients: "ops@example.com; OPS@example.com, web@example.com" },
      "sam",
      RULES,
    );
    expect(listed.ok && listed.watch.recipients).toEqual(["ops@example.com", "web@example.com"]);
  });

  it("moves the next run with the period, pauses and resumes, and deletes with the lease row", async () => {
    const db = use().db;
    const now = Date.now();
    const created = await createWatch(
      db,
      {
        url: "https://example.org/",
        checks: ["security", "performance"],
        every: "weekly",
        recipients: ["ops@example.com"],
      },
      "sam",
      RULES,
    );
    if (!created.ok) throw new Error(created.message);
    const id = created.watch.id;
    const hourly = await changeWatch(db, id, { every: "hourly" }, RULES);
    expect(hourly?.ok && Date.parse(hourly.watch.nextRunAt) - now).toBeLessThanOrEqual(
      PERIOD_MS.hourly + 5_000,
    );
    const paused = await changeWatch(db, id, { paused: true }, RULES);
    expect(paused?.ok && paused.watch.paused).toBe(true);
    expect((await listWatches(db)).find((watch) => watch.id === id)).toMatchObject({
      paused: true,
      openAlerts: 0,
      latestRun: null,
    });
    const unknown = await changeWatch(db, id, { colour: "red" }, RULES);
    expect(unknown?.ok === false && unknown.message).toBe("Unknown field: colour.");
    expect(await changeWatch(db, 999_999, { paused: false }, RULES)).toBeUndefined();
    await db
      .insertInto("jobLeases")
      .values({ name: `watch:${id}`, lockedBy: null, lockedUntil: null, finishedAt: null, lastResult: null })
      .execute();
    expect(await deleteWatch(db, id)).toBe(true);
    expect(await findWatch(db, id)).toBeUndefined();
    expect(
      await db.selectFrom("jobLeases").select("name").where("name", "=", `watch:${id}`).execute(),
    ).toEqual([]);
  });
});
