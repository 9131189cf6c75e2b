import { beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import {
  createSession,
  deleteSession,
  findSessionUser,
  hashToken,
  pruneSessions,
} from "./sessions.server.ts";
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
});
