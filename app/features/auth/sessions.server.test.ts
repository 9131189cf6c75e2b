import { beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import {
  createSession,
  deleteSession,
  endSessionByHandle,
  endUserSessions,
  findSessionUser,
  hashToken,
  listSessions,
  pruneSessions,
} from "./sessions.server.ts";
import { signOutEverywhere } from "./staff.server.ts";
import { listStaffEvents } from "./staff-events.server.ts";
import { createUser, type PublicUser } from "./users.server.ts";

const MINUTE = 60_000;
const POLICY = { idleMs: 30 * MINUTE, absoluteMs: 8 * 60 * MINUTE };
const NOW = new Date("2026-11-21T10:00:00.000Z");
const later = (ms: number) => new Date(NOW.getTime() + ms);

describeEachDatabase("sessions", (use) => {
  let user: PublicUser;

  beforeAll(async () => {
    user = await createUser(use().db, {
      username: "session-user",
      password: "a long enough passphrase",
      isAdmin: true,
    });
  });
  beforeEach(async () => {
    await use().db.deleteFrom("sessions").execute();
  });

  const row = (token: string) =>
    use().db.selectFrom("sessions").selectAll().where("idHash", "=", hashToken(token)).executeTakeFirst();

  it("hands out a 256-bit random token and finds its user with it", async () => {
    const { token, expiresAt } = await createSession(use().db, user.id, POLICY, NOW);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.toISOString()).toBe(later(POLICY.absoluteMs).toISOString());
    await expect(findSessionUser(use().db, token, POLICY, later(MINUTE))).resolves.toEqual(user);
    const second = await createSession(use().db, user.id, POLICY, NOW);
    expect(second.token).not.toBe(token);
  });

  it("stores only the token's SHA-256, never the token", async () => {
    const { token } = await createSession(use().db, user.id, POLICY, NOW);
    const rows = await use().db.selectFrom("sessions").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.idHash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]).toMatchObject({
      userId: user.id,
      createdAt: NOW.toISOString(),
      lastSeenAt: NOW.toISOString(),
      expiresAt: later(POLICY.absoluteMs).toISOString(),
    });
    // The hash itself is not a token: presenting it finds nothing.
    await expect(findSessionUser(use().db, hashToken(token), POLICY, NOW)).resolves.toBeNull();
  });

  it("refuses tokens of the wrong shape without a query, and unknown or altered ones", async () => {
    const { token } = await createSession(use().db, user.id, POLICY, NOW);
    const altered = `${token.slice(0, 10)}${token[10] === "A" ? "B" : "A"}${token.slice(11)}`;
    for (const candidate of [
      "",
      "x",
      `${token}x`,
      token.slice(1),
      `${token.slice(1)}=`,
      `${token.slice(1)};`,
      altered,
    ]) {
      await expect(findSessionUser(use().db, candidate, POLICY, NOW), candidate).resolves.toBeNull();
    }
    await expect(findSessionUser(use().db, token, POLICY, NOW)).resolves.toEqual(user);
  });

  it("ends after the idle time without a request, and deletes the row", async () => {
    const { token } = await createSession(use().db, user.id, POLICY, NOW);
    await expect(findSessionUser(use().db, token, POLICY, later(POLICY.idleMs - 1))).resolves.toEqual(user);
    // That request touched it: idle time counts from then.
    const touchedAt = later(POLICY.idleMs - 1);
    await expect(
      findSessionUser(use().db, token, POLICY, new Date(touchedAt.getTime() + POLICY.idleMs - 1)),
    ).resolves.toEqual(user);
    const idleFrom = new Date(touchedAt.getTime() + POLICY.idleMs - 1);
    await expect(
      findSessionUser(use().db, token, POLICY, new Date(idleFrom.getTime() + POLICY.idleMs)),
    ).resolves.toBeNull();
    expect(await row(token)).toBeUndefined();
  });

  it("ends at its absolute expiry however active it is", async () => {
    const { token } = await createSession(use().db, user.id, POLICY, NOW);
    // A request every 20 minutes keeps it from going idle...
    for (let at = 20 * MINUTE; at < POLICY.absoluteMs; at += 20 * MINUTE) {
      await expect(
        findSessionUser(use().db, token, POLICY, later(at)),
        `at ${at / MINUTE} min`,
      ).resolves.toEqual(user);
    }
    // ...but not past its absolute lifetime.
    await expect(findSessionUser(use().db, token, POLICY, later(POLICY.absoluteMs))).resolves.toBeNull();
    expect(await row(token)).toBeUndefined();
  });

  it("writes last_seen_at at most once a minute", async () => {
    const { token } = await createSession(use().db, user.id, POLICY, NOW);
    await findSessionUser(use().db, token, POLICY, later(30_000));
    expect((await row(token))?.lastSeenAt).toBe(NOW.toISOString());
    await findSessionUser(use().db, token, POLICY, later(59_999));
    expect((await row(token))?.lastSeenAt).toBe(NOW.toISOString());
    await findSessionUser(use().db, token, POLICY, later(60_000));
    expect((await row(token))?.lastSeenAt).toBe(later(60_000).toISOString());
    await findSessionUser(use().db, token, POLICY, later(90_000));
    expect((await row(token))?.lastSeenAt).toBe(later(60_000).toISOString());
  });

  it("is gone once deleted (logout), and deleting twice is harmless", async () => {
    const { token } = await createSession(use().db, user.id, POLICY, NOW);
    const other = await createSession(use().db, user.id, POLICY, NOW);
    await deleteSession(use().db, token);
    await deleteSession(use().db, token);
    await expect(findSessionUser(use().db, token, POLICY, NOW)).resolves.toBeNull();
    await expect(findSessionUser(use().db, other.token, POLICY, NOW)).resolves.toEqual(user);
  });

  it("prunes exactly the sessions past either expiry", async () => {
    const fresh = await createSession(use().db, user.id, POLICY, later(POLICY.absoluteMs - 5 * MINUTE));
    const idle = await createSession(use().db, user.id, POLICY, NOW);
    const old = await createSession(use().db, user.id, POLICY, NOW);
    // `old` stayed active, so only its absolute expiry can end it.
    await use()
      .db.updateTable("sessions")
      .set({ lastSeenAt: later(POLICY.absoluteMs - MINUTE).toISOString() })
      .where("idHash", "=", hashToken(old.token))
      .execute();
    await pruneSessions(use().db, POLICY, later(POLICY.absoluteMs));
    const left = await use().db.selectFrom("sessions").select("idHash").execute();
    expect(left.map((session) => session.idHash)).toEqual([hashToken(fresh.token)]);
    expect(idle.token).not.toBe(fresh.token);
  });

  it("goes with its user", async () => {
    const temporary = await createUser(use().db, {
      username: "temporary",
      password: "a long enough passphrase",
      isAdmin: false,
    });
    const { token } = await createSession(use().db, temporary.id, POLICY, NOW);
    await use().db.deleteFrom("users").where("id", "=", temporary.id).execute();
    expect(await row(token)).toBeUndefined();
  });

  // Issue 13: the sessions list and ending sessions.
  const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
  const SAFARI_IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

  it("lists a user's live sessions with browser and masked network, never the address or token", async () => {
    const laptop = await createSession(use().db, user.id, POLICY, NOW, {
      userAgent: FIREFOX_WINDOWS,
      clientAddress: "203.0.113.77",
    });
    const phone = await createSession(use().db, user.id, POLICY, later(MINUTE), {
      userAgent: SAFARI_IPHONE,
      clientAddress: "2001:db8:1:2:3:4:5:6",
    });
    // Idle past the policy: not listed.
    await createSession(use().db, user.id, POLICY, later(-POLICY.idleMs - MINUTE), {
      clientAddress: "198.51.100.9",
    });

    const sessions = await listSessions(use().db, user.id, POLICY, laptop.token, later(2 * MINUTE));
    expect(sessions).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        browser: "Safari on iOS",
        address: "2001:db8:1::/48",
        createdAt: later(MINUTE).toISOString(),
        lastSeenAt: later(MINUTE).toISOString(),
        current: false,
      },
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        browser: "Firefox on Windows",
        address: "203.0.113.x",
        createdAt: NOW.toISOString(),
        lastSeenAt: NOW.toISOString(),
        current: true,
      },
    ]);
    const stored = JSON.stringify(await use().db.selectFrom("sessions").selectAll().execute());
    for (const secret of [
      "203.0.113.77",
      "2001:db8:1:2:3:4:5:6",
      "Gecko/20100101",
      laptop.token,
      phone.token,
    ])
      expect(stored).not.toContain(secret);
  });

  it("ends one session by its handle, only the owner's, and the device is signed out", async () => {
    const other = await createUser(use().db, {
      username: "session-other",
      password: "a long enough passphrase",
      isAdmin: true,
    });
    const mine = await createSession(use().db, user.id, POLICY, NOW);
    const theirs = await createSession(use().db, other.id, POLICY, NOW);
    const [theirHandle] = (await listSessions(use().db, other.id, POLICY, undefined, NOW)).map((s) => s.id);
    // Someone else's handle, a malformed one: nothing ends.
    expect(await endSessionByHandle(use().db, user.id, theirHandle as string)).toBe(false);
    expect(await endSessionByHandle(use().db, user.id, "' or 1=1 --")).toBe(false);
    expect(await findSessionUser(use().db, theirs.token, POLICY, NOW)).not.toBeNull();

    const [myHandle] = (await listSessions(use().db, user.id, POLICY, undefined, NOW)).map((s) => s.id);
    expect(await endSessionByHandle(use().db, user.id, myHandle as string)).toBe(true);
    expect(await findSessionUser(use().db, mine.token, POLICY, NOW)).toBeNull();
    await use().db.deleteFrom("users").where("id", "=", other.id).execute();
  });

  it("ends every other session but keeps the one asking", async () => {
    const here = await createSession(use().db, user.id, POLICY, NOW);
    const elsewhere = [
      await createSession(use().db, user.id, POLICY, NOW),
      await createSession(use().db, user.id, POLICY, NOW),
    ];
    expect(await endUserSessions(use().db, user.id, here.token)).toBe(2);
    expect(await findSessionUser(use().db, here.token, POLICY, NOW)).toEqual(user);
    for (const { token } of elsewhere) expect(await findSessionUser(use().db, token, POLICY, NOW)).toBeNull();
  });

  it("signs a user out everywhere and records who did it", async () => {
    const target = await createUser(use().db, {
      username: "session-target",
      password: "a long enough passphrase",
      isAdmin: true,
    });
    const sessions = [
      await createSession(use().db, target.id, POLICY, NOW),
      await createSession(use().db, target.id, POLICY, NOW),
    ];
    const mine = await createSession(use().db, user.id, POLICY, NOW);
    const { ended } = await signOutEverywhere(use().db, { id: target.id, actor: user }, NOW);
    expect(ended).toBe(2);
    for (const { token } of sessions) expect(await findSessionUser(use().db, token, POLICY, NOW)).toBeNull();
    expect(await findSessionUser(use().db, mine.token, POLICY, NOW)).toEqual(user);
    const [event] = await listStaffEvents(use().db, 1);
    expect(event).toMatchObject({
      username: "session-target",
      action: "signed_out",
      actorUsername: "session-user",
    });
    await use().db.deleteFrom("staffEvents").execute();
    await use().db.deleteFrom("users").where("id", "=", target.id).execute();
  });
});
