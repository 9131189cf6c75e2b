import { beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { listAccessLog, pruneAccessLog, recordAccess } from "./access-log.server.ts";

// The staff access log on both databases: what an entry keeps (and does not), the filter by kind,
// paging back, and retention.

const NOW = new Date("2026-11-25T10:00:00.000Z");
const DAY = 86_400_000;
const boss = { id: 1, username: "boss" };

describeEachDatabase("access log", (use) => {
  const db = () => use().db;
  beforeEach(async () => {
    await db().deleteFrom("accessLog").execute();
  });

  it("keeps who, what, about whom, a few facts and the network, never the address", async () => {
    await recordAccess(
      db(),
      {
        action: "sign_in",
        actor: boss,
        detail: { browser: "Firefox on Windows" },
        clientAddress: "203.0.113.77",
      },
      NOW,
    );
    await recordAccess(
      db(),
      {
        action: "staff_disabled",
        actor: boss,
        subject: { id: 2, username: "jane" },
        clientAddress: "2001:db8:5:6::1",
      },
      new Date(NOW.getTime() + 1000),
    );
    await recordAccess(
      db(),
      { action: "lead_erased", actor: boss, leadId: 42 },
      new Date(NOW.getTime() + 2000),
    );
    const { entries, nextBefore } = await listAccessLog(db());
    expect(nextBefore).toBeNull();
    expect(entries.map(({ id: _id, ...entry }) => entry)).toEqual([
      {
        occurredAt: "2026-11-25T10:00:02.000Z",
        action: "lead_erased",
        actor: "boss",
        subject: null,
        leadId: 42,
        detail: {},
        network: null,
      },
      {
        occurredAt: "2026-11-25T10:00:01.000Z",
        action: "staff_disabled",
        actor: "boss",
        subject: "jane",
        leadId: null,
        detail: {},
        network: "2001:db8:5::/48",
      },
      {
        occurredAt: "2026-11-25T10:00:00.000Z",
        action: "sign_in",
        actor: "boss",
        subject: null,
        leadId: null,
        detail: { browser: "Firefox on Windows" },
        network: "203.0.113.x",
      },
    ]);
    const stored = JSON.stringify(await db().selectFrom("accessLog").selectAll().execute());
    expect(stored).not.toContain("203.0.113.77");
    expect(stored).not.toContain("2001:db8:5:6::1");
  });

  it("filters by kind and pages back 50 at a time", async () => {
    for (let index = 0; index < 60; index++)
      await recordAccess(db(), { action: index % 2 === 0 ? "sign_in" : "export", actor: boss }, NOW);
    await recordAccess(db(), { action: "sign_in_failed", actor: null, detail: { account: "unknown" } }, NOW);
    const first = await listAccessLog(db());
    expect(first.entries).toHaveLength(50);
    expect(first.nextBefore).not.toBeNull();
    const second = await listAccessLog(db(), { before: first.nextBefore ?? undefined });
    expect(second.entries).toHaveLength(11);
    expect(second.nextBefore).toBeNull();
    expect(new Set([...first.entries, ...second.entries].map((entry) => entry.id)).size).toBe(61);

    const signIns = await listAccessLog(db(), { kind: "sign-ins" });
    expect(signIns.entries).toHaveLength(31);
    expect(new Set(signIns.entries.map((entry) => entry.action))).toEqual(
      new Set(["sign_in", "sign_in_failed"]),
    );
    expect((await listAccessLog(db(), { kind: "exports" })).entries).toHaveLength(30);
    expect((await listAccessLog(db(), { kind: "erasures" })).entries).toHaveLength(0);
  });

  it("deletes entries older than the retention period, and only those", async () => {
    await recordAccess(db(), { action: "sign_in", actor: boss }, new Date(NOW.getTime() - 366 * DAY));
    await recordAccess(db(), { action: "export", actor: boss }, new Date(NOW.getTime() - 364 * DAY));
    expect(await pruneAccessLog(db(), 365, NOW)).toBe(1);
    expect((await listAccessLog(db())).entries.map((entry) => entry.action)).toEqual(["export"]);
  });
});
