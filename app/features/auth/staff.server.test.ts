import { beforeEach, expect, it } from "vitest";
import { listAccessLog } from "#app/lib/access-log.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { createAuthService } from "./auth-service.server.ts";
import { createHashingQueue } from "./hashing-queue.server.ts";
import { createLoginThrottle } from "./login-throttle.server.ts";
import { verifyPassword } from "./password.server.ts";
import { createSession, findSessionUser, hashToken } from "./sessions.server.ts";
import {
  createStaffMember,
  DISABLED_LINK_MESSAGE,
  findSetPasswordLink,
  issueSetPasswordLink,
  LAST_ADMIN_MESSAGE,
  listStaff,
  OWN_LINK_MESSAGE,
  redeemSetPasswordLink,
  SET_PASSWORD_LINK_TTL_MS,
  type StaffMember,
  setStaffDisabled,
  setStaffPassword,
  setStaffRole,
} from "./staff.server.ts";
import { COMMAND_LINE_ACTOR, listStaffEvents, type StaffActor } from "./staff-events.server.ts";
import { LINK_GONE_MESSAGE } from "./staff-messages.ts";
import { createUser, findUserByUsername, NO_PASSWORD, UserInputError } from "./users.server.ts";

const PASSWORD = "a long enough passphrase";
const NEW_PASSWORD = "a brand new passphrase";
const POLICY = { idleMs: 60 * 60_000, absoluteMs: 24 * 3_600_000 };
const NOW = new Date("2026-11-21T10:00:00.000Z");
const later = (ms: number) => new Date(NOW.getTime() + ms);
const HOUR = 3_600_000;

describeEachDatabase("staff accounts", (use) => {
  const db = () => use().db;
  let boss: StaffMember;
  let bossActor: StaffActor;
  let address = 0;

  const auth = () =>
    createAuthService({
      db: db(),
      policy: POLICY,
      throttle: createLoginThrottle({ db: db(), secret: "test-secret-test-secret-test-secret" }),
      secret: "test-secret-test-secret-test-secret",
      hashing: createHashingQueue(),
    });
  const login = (username: string, password: string, now = NOW) =>
    auth().login(username, password, `203.0.113.${(++address % 250) + 1}`, now);
  const actions = async () =>
    (await listStaffEvents(db(), 100))
      .map((event) => `${event.actorUsername} ${event.action} ${event.username}`)
      .reverse();
  const member = async (username: string) =>
    (await listStaff(db())).find((one) => one.username === username) as StaffMember;
  const addAdmin = async (username: string) =>
    (await createStaffMember(db(), { username, password: PASSWORD }, bossActor, NOW)).member;

  beforeEach(async () => {
    for (const table of ["staffEvents", "setPasswordLinks", "sessions", "loginAttempts", "users"] as const)
      await db().deleteFrom(table).execute();
    boss = (await createStaffMember(db(), { username: "boss", password: PASSWORD }, COMMAND_LINE_ACTOR, NOW))
      .member;
    bossActor = { id: boss.id, username: boss.username };
  });

  it("creates an admin with a password, records who did it, and lists the account without its hash", async () => {
    const { member: alice, link } = await createStaffMember(
      db(),
      { username: " Alice ", password: PASSWORD },
      bossActor,
      later(HOUR),
    );
    expect(link).toBeUndefined();
    expect(alice).toEqual({
      id: expect.any(Number),
      username: "Alice",
      role: "admin",
      isAdmin: true,
      disabled: false,
      passwordSet: true,
      twoFactor: false,
      email: null,
      lastSignInAt: null,
      createdAt: later(HOUR).toISOString(),
    });
    expect(await listStaff(db())).toEqual([alice, boss]);
    const row = await findUserByUsername(db(), "alice");
    await expect(verifyPassword(PASSWORD, row?.passwordHash ?? "")).resolves.toBe(true);
    expect(await actions()).toEqual(["command line created boss", "boss created Alice"]);
    const [latest] = await listStaffEvents(db());
    expect(latest).toMatchObject({ userId: alice.id, createdAt: later(HOUR).toISOString() });
  });

  it("refuses a duplicate in any case, a bad username or a weak password, storing nothing", async () => {
    await addAdmin("carol");
    const attempts: [string, string | undefined, RegExp][] = [
      ["CAROL", PASSWORD, /^A user named "carol" already exists\.$/],
      ["ab", PASSWORD, /username must be 3 to 64/],
      ["has space", undefined, /username must be/],
      ["dave", "short", /at least 12 characters/],
      ["dave", "x".repeat(257), /at most 256 characters/],
      ["dave", `${PASSWORD}\u0000`, /NUL/],
    ];
    for (const [username, password, message] of attempts) {
      const attempt = createStaffMember(db(), { username, password }, bossActor);
      await expect(attempt, username).rejects.toBeInstanceOf(UserInputError);
      await expect(createStaffMember(db(), { username, password }, bossActor)).rejects.toThrow(message);
    }
    expect((await listStaff(db())).map((one) => one.username)).toEqual(["boss", "carol"]);
    expect(await actions()).toEqual(["command line created boss", "boss created carol"]);
  });

  it("answers two simultaneous creations of one name with one account and one clear refusal", async () => {
    const attempts = await Promise.allSettled(
      ["erin", "ERIN", "Erin"].map((username) =>
        createStaffMember(db(), { username, password: PASSWORD }, bossActor),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === "fulfilled")).toHaveLength(1);
    for (const attempt of attempts) {
      if (attempt.status === "rejected") {
        expect(attempt.reason).toBeInstanceOf(UserInputError);
        expect(String(attempt.reason)).toMatch(/already exists/);
      }
    }
    expect(await listStaff(db())).toHaveLength(2);
  });

  it("creates an account with a one-time link instead: no password works until the link is used", async () => {
    const { member: frank, link } = await createStaffMember(db(), { username: "frank" }, bossActor, NOW);
    expect(frank).toMatchObject({ username: "frank", passwordSet: false, disabled: false });
    expect(link?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link?.expiresAt).toBe(later(SET_PASSWORD_LINK_TTL_MS).toISOString());
    expect(SET_PASSWORD_LINK_TTL_MS).toBe(72 * HOUR);
    const token = link?.token ?? "";
    // Only the token's hash is stored; the account has no password hash at all.
    const stored = await db().selectFrom("setPasswordLinks").selectAll().execute();
    expect(stored).toEqual([
      {
        tokenHash: hashToken(token),
        userId: frank.id,
        createdByUserId: boss.id,
        createdAt: NOW.toISOString(),
        expiresAt: later(SET_PASSWORD_LINK_TTL_MS).toISOString(),
      },
    ]);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await findUserByUsername(db(), "frank"))?.passwordHash).toBe(NO_PASSWORD);
    for (const guess of [NO_PASSWORD, "", PASSWORD])
      expect((await login("frank", guess)).kind).toBe("invalid");

    await expect(findSetPasswordLink(db(), token, later(HOUR))).resolves.toEqual({
      userId: frank.id,
      username: "frank",
      expiresAt: later(SET_PASSWORD_LINK_TTL_MS).toISOString(),
    });
    await expect(redeemSetPasswordLink(db(), token, "too short", later(HOUR))).rejects.toThrow(/at least 12/);
    await expect(redeemSetPasswordLink(db(), token, NEW_PASSWORD, later(HOUR))).resolves.toEqual({
      userId: frank.id,
      username: "frank",
    });
    expect((await login("frank", NEW_PASSWORD, later(HOUR))).kind).toBe("ok");
    expect(await member("frank")).toMatchObject({
      passwordSet: true,
      lastSignInAt: later(HOUR).toISOString(),
    });
    // Single use.
    await expect(findSetPasswordLink(db(), token, later(HOUR))).resolves.toBeNull();
    await expect(redeemSetPasswordLink(db(), token, "yet another passphrase", later(HOUR))).rejects.toThrow();
    expect((await login("frank", NEW_PASSWORD, later(HOUR))).kind).toBe("ok");
    expect(await actions()).toEqual([
      "command line created boss",
      "boss created frank",
      "boss link_issued frank",
      "frank link_used frank",
    ]);
  });

  it("lets only one of two simultaneous uses of a link through", async () => {
    const { link } = await createStaffMember(db(), { username: "gina" }, bossActor, NOW);
    const results = await Promise.allSettled(
      ["first passphrase here", "second passphrase here"].map((password) =>
        redeemSetPasswordLink(db(), link?.token ?? "", password, later(HOUR)),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((result) => result.status === "rejected");
    expect(String((rejected as PromiseRejectedResult).reason)).toContain(LINK_GONE_MESSAGE);
    const winner = results.findIndex((result) => result.status === "fulfilled");
    const chosen = ["first passphrase here", "second passphrase here"][winner] ?? "";
    expect((await login("gina", chosen, later(HOUR))).kind).toBe("ok");
    expect((await actions()).filter((line) => line.includes("link_used"))).toHaveLength(1);
  });

  it("refuses an expired link, an unknown or malformed token, and a link of a disabled account", async () => {
    const { link } = await createStaffMember(db(), { username: "hank" }, bossActor, NOW);
    const token = link?.token ?? "";
    const expired = later(SET_PASSWORD_LINK_TTL_MS);
    await expect(findSetPasswordLink(db(), token, expired)).resolves.toBeNull();
    await expect(redeemSetPasswordLink(db(), token, NEW_PASSWORD, expired)).rejects.toThrow();
    // The last character changed (to one it is not: a token ending in "A" made this test fail 1 in 64).
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const bad of ["", "short", altered, `${token}x`, hashToken(token)]) {
      await expect(findSetPasswordLink(db(), bad, NOW)).resolves.toBeNull();
    }
    expect((await findUserByUsername(db(), "hank"))?.passwordHash).toBe(NO_PASSWORD);

    const { member: ivy, link: ivyLink } = await createStaffMember(db(), { username: "ivy" }, bossActor, NOW);
    await setStaffDisabled(db(), { id: ivy.id, disabled: true, actor: bossActor }, NOW);
    // Disabling deleted the link; an enabled-again account needs a new one.
    await expect(findSetPasswordLink(db(), ivyLink?.token ?? "", NOW)).resolves.toBeNull();
    await expect(redeemSetPasswordLink(db(), ivyLink?.token ?? "", NEW_PASSWORD, NOW)).rejects.toThrow();
    await expect(issueSetPasswordLink(db(), { id: ivy.id, actor: bossActor }, NOW)).rejects.toThrow(
      DISABLED_LINK_MESSAGE,
    );
  });

  it("disabling ends every session at once and stops sign-in; enabling lets the person sign in again", async () => {
    const jane = await addAdmin("jane");
    const sessions = await Promise.all([
      createSession(db(), jane.id, POLICY, NOW),
      createSession(db(), jane.id, POLICY, NOW),
    ]);
    const bossSession = await createSession(db(), boss.id, POLICY, NOW);

    const disabled = await setStaffDisabled(db(), { id: jane.id, disabled: true, actor: bossActor }, NOW);
    expect(disabled).toMatchObject({ username: "jane", disabled: true });
    for (const { token } of sessions)
      await expect(findSessionUser(db(), token, POLICY, NOW)).resolves.toBeNull();
    expect(
      await db().selectFrom("sessions").select("userId").where("userId", "=", jane.id).execute(),
    ).toEqual([]);
    await expect(findSessionUser(db(), bossSession.token, POLICY, NOW)).resolves.toMatchObject({
      username: "boss",
    });
    // The right password opens nothing, with the same answer as a wrong one.
    expect(await login("jane", PASSWORD)).toEqual({ kind: "invalid" });

    // Disabling again changes and records nothing.
    await setStaffDisabled(db(), { id: jane.id, disabled: true, actor: bossActor }, NOW);
    const enabled = await setStaffDisabled(db(), { id: jane.id, disabled: false, actor: bossActor }, NOW);
    expect(enabled.disabled).toBe(false);
    // The old sessions stay ended; a new sign-in works.
    for (const { token } of sessions)
      await expect(findSessionUser(db(), token, POLICY, NOW)).resolves.toBeNull();
    expect((await login("jane", PASSWORD)).kind).toBe("ok");
    expect(await actions()).toEqual([
      "command line created boss",
      "boss created jane",
      "boss disabled jane",
      "boss enabled jane",
    ]);
  });

  it("refuses a session of a disabled account even when the row is still there (another instance raced)", async () => {
    const kate = await addAdmin("kate");
    const { token } = await createSession(db(), kate.id, POLICY, NOW);
    await db().updateTable("users").set({ disabled: 1 }).where("id", "=", kate.id).execute();
    await expect(findSessionUser(db(), token, POLICY, NOW)).resolves.toBeNull();
    await expect(auth().currentUser(token, NOW)).resolves.toBeNull();
  });

  it("a new password signs the account out everywhere, leaves others signed in, and keeps it disabled", async () => {
    const leo = await addAdmin("leo");
    const leoSessions = await Promise.all([
      createSession(db(), leo.id, POLICY, NOW),
      createSession(db(), leo.id, POLICY, NOW),
    ]);
    const bossSession = await createSession(db(), boss.id, POLICY, NOW);
    const { link } = await issueSetPasswordLink(db(), { id: leo.id, actor: bossActor }, NOW);

    await expect(
      setStaffPassword(db(), { id: leo.id, password: NEW_PASSWORD, actor: bossActor }, NOW),
    ).resolves.toMatchObject({ username: "leo", passwordSet: true });
    for (const { token } of leoSessions)
      await expect(findSessionUser(db(), token, POLICY, NOW)).resolves.toBeNull();
    await expect(findSessionUser(db(), bossSession.token, POLICY, NOW)).resolves.not.toBeNull();
    // The link handed out before is void: the new password is the one that counts.
    await expect(findSetPasswordLink(db(), link.token, NOW)).resolves.toBeNull();
    expect((await login("leo", PASSWORD)).kind).toBe("invalid");
    expect((await login("leo", NEW_PASSWORD)).kind).toBe("ok");

    await setStaffDisabled(db(), { id: leo.id, disabled: true, actor: bossActor }, NOW);
    await setStaffPassword(db(), { id: leo.id, password: PASSWORD, actor: COMMAND_LINE_ACTOR }, NOW);
    expect(await member("leo")).toMatchObject({ disabled: true, passwordSet: true });
    expect((await login("leo", PASSWORD)).kind).toBe("invalid");

    await expect(
      setStaffPassword(db(), { id: leo.id, password: "too short", actor: bossActor }, NOW),
    ).rejects.toBeInstanceOf(UserInputError);
    await expect(
      setStaffPassword(db(), { id: 999_999, password: NEW_PASSWORD, actor: bossActor }, NOW),
    ).rejects.toMatchObject({ status: 404 });
    expect((await actions()).slice(-4)).toEqual([
      "boss link_issued leo",
      "boss password_reset leo",
      "boss disabled leo",
      "command line password_reset leo",
    ]);
  });

  it("keeps the session of someone changing their own password, and ends their others", async () => {
    const [current, other] = await Promise.all([
      createSession(db(), boss.id, POLICY, NOW),
      createSession(db(), boss.id, POLICY, NOW),
    ]);
    await setStaffPassword(
      db(),
      { id: boss.id, password: NEW_PASSWORD, actor: bossActor, keepSessionToken: current.token },
      NOW,
    );
    await expect(findSessionUser(db(), current.token, POLICY, NOW)).resolves.not.toBeNull();
    await expect(findSessionUser(db(), other.token, POLICY, NOW)).resolves.toBeNull();
  });

  it("a reset by link voids the old password and every session, and replaces an older link", async () => {
    const mia = await addAdmin("mia");
    const session = await createSession(db(), mia.id, POLICY, NOW);
    const first = await issueSetPasswordLink(db(), { id: mia.id, actor: bossActor }, NOW);
    expect(first.member).toMatchObject({ passwordSet: false });
    await expect(findSessionUser(db(), session.token, POLICY, NOW)).resolves.toBeNull();
    expect((await login("mia", PASSWORD)).kind).toBe("invalid");
    const second = await issueSetPasswordLink(db(), { id: mia.id, actor: bossActor }, later(HOUR));
    await expect(findSetPasswordLink(db(), first.link.token, later(HOUR))).resolves.toBeNull();
    await redeemSetPasswordLink(db(), second.link.token, NEW_PASSWORD, later(HOUR));
    expect((await login("mia", NEW_PASSWORD, later(HOUR))).kind).toBe("ok");
    // Not for one's own account: a signed-in admin sets a password instead.
    await expect(issueSetPasswordLink(db(), { id: boss.id, actor: bossActor }, NOW)).rejects.toThrow(
      OWN_LINK_MESSAGE,
    );
  });

  it("always leaves an enabled admin with a password", async () => {
    const nina = await addAdmin("nina");
    // The last one cannot be disabled, not even by themselves.
    await setStaffDisabled(db(), { id: nina.id, disabled: true, actor: bossActor }, NOW);
    await expect(
      setStaffDisabled(db(), { id: boss.id, disabled: true, actor: bossActor }, NOW),
    ).rejects.toMatchObject({ status: 409, message: LAST_ADMIN_MESSAGE });
    // A non-admin account or an admin still waiting for their link does not count as one.
    await createUser(db(), { username: "viewer", password: PASSWORD, isAdmin: false });
    const { member: olga } = await createStaffMember(db(), { username: "olga" }, bossActor, NOW);
    await expect(
      setStaffDisabled(db(), { id: boss.id, disabled: true, actor: bossActor }, NOW),
    ).rejects.toMatchObject({ status: 409 });
    // Once another admin can sign in, the first may go.
    await setStaffDisabled(db(), { id: nina.id, disabled: false, actor: bossActor }, NOW);
    await setStaffDisabled(
      db(),
      { id: boss.id, disabled: true, actor: { id: nina.id, username: "nina" } },
      NOW,
    );
    // A reset by link of the last admin who can sign in is refused too.
    const ninaActor = { id: nina.id, username: "nina" };
    await expect(
      issueSetPasswordLink(db(), { id: nina.id, actor: { id: olga.id, username: "olga" } }, NOW),
    ).rejects.toMatchObject({
      status: 409,
      message: LAST_ADMIN_MESSAGE,
    });
    await expect(
      setStaffDisabled(db(), { id: 999_999, disabled: true, actor: ninaActor }, NOW),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect((await listStaff(db())).filter((one) => one.isAdmin && !one.disabled && one.passwordSet)).toEqual([
      expect.objectContaining({ username: "nina" }),
    ]);
  });

  it("leaves one enabled admin when the last two disable each other at the same moment", async () => {
    for (let round = 0; round < 5; round++) {
      await db().deleteFrom("staffEvents").execute();
      await db().deleteFrom("users").where("id", "<>", boss.id).execute();
      await db().updateTable("users").set({ disabled: 0 }).execute();
      const peer = await addAdmin(`peer-${round}`);
      const peerActor = { id: peer.id, username: peer.username };
      const results = await Promise.allSettled([
        setStaffDisabled(db(), { id: peer.id, disabled: true, actor: bossActor }),
        setStaffDisabled(db(), { id: boss.id, disabled: true, actor: peerActor }),
      ]);
      expect(results.map((result) => result.status).sort(), `round ${round}`).toEqual([
        "fulfilled",
        "rejected",
      ]);
      const refusal = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
      expect(refusal.reason).toMatchObject({ status: 409, message: LAST_ADMIN_MESSAGE });
      const enabled = (await listStaff(db())).filter((one) => !one.disabled);
      expect(enabled, `round ${round}`).toHaveLength(1);
      expect((await listStaffEvents(db())).filter((event) => event.action === "disabled")).toHaveLength(1);
    }
  });

  it("leaves an admin who can sign in when a disable and a reset by link race", async () => {
    for (let round = 0; round < 3; round++) {
      await db().deleteFrom("users").where("id", "<>", boss.id).execute();
      await db().updateTable("users").set({ disabled: 0 }).execute();
      const peer = await addAdmin(`racer-${round}`);
      const peerActor = { id: peer.id, username: peer.username };
      await Promise.allSettled([
        issueSetPasswordLink(db(), { id: peer.id, actor: bossActor }),
        setStaffDisabled(db(), { id: boss.id, disabled: true, actor: peerActor }),
      ]);
      const usable = (await listStaff(db())).filter((one) => !one.disabled && one.passwordSet);
      expect(usable, `round ${round}`).toHaveLength(1);
    }
  });

  it("records the time of each successful sign-in, and only successful ones", async () => {
    const paul = await addAdmin("paul");
    expect((await member("paul")).lastSignInAt).toBeNull();
    await login("paul", "not the passphrase", later(HOUR));
    expect((await member("paul")).lastSignInAt).toBeNull();
    await login("paul", PASSWORD, later(2 * HOUR));
    expect(await member("paul")).toMatchObject({ id: paul.id, lastSignInAt: later(2 * HOUR).toISOString() });
  });

  it("gives a role that holds from the next request, recorded in the history and the access log", async () => {
    const sam = (
      await createStaffMember(db(), { username: "sam", password: PASSWORD, role: "sales" }, bossActor)
    ).member;
    expect(sam).toMatchObject({ role: "sales", isAdmin: true });
    const { token } = await createSession(db(), sam.id, POLICY, NOW);
    expect(await findSessionUser(db(), token, POLICY, NOW)).toMatchObject({ role: "sales", isAdmin: true });

    const changed = await setStaffRole(db(), { id: sam.id, role: "marketing", actor: bossActor }, later(1));
    expect(changed).toMatchObject({ role: "marketing", isAdmin: false });
    // The same session, the next request: the new role, read with the session (no sign-in again).
    expect(await findSessionUser(db(), token, POLICY, later(2))).toMatchObject({
      id: sam.id,
      role: "marketing",
      isAdmin: false,
    });
    const row = await db()
      .selectFrom("users")
      .select(["role", "isAdmin"])
      .where("id", "=", sam.id)
      .executeTakeFirst();
    expect(row).toEqual({ role: "marketing", isAdmin: 0 });

    // The same role again records nothing.
    await setStaffRole(db(), { id: sam.id, role: "marketing", actor: bossActor }, later(3));
    expect((await actions()).filter((line) => line.includes("role_changed"))).toEqual([
      "boss role_changed sam",
    ]);
    const { entries } = await listAccessLog(db(), { kind: "accounts" });
    expect(entries.find((entry) => entry.action === "staff_role_changed")).toMatchObject({
      actor: "boss",
      subject: "sam",
      detail: { from: "sales", to: "marketing" },
    });
  });

  it("refuses to take the admin role from the last enabled admin, and allows it with another", async () => {
    await expect(setStaffRole(db(), { id: boss.id, role: "sales", actor: bossActor })).rejects.toThrow(
      LAST_ADMIN_MESSAGE,
    );
    expect(await member("boss")).toMatchObject({ role: "admin" });
    const alice = await addAdmin("alice");
    await setStaffDisabled(db(), { id: alice.id, disabled: true, actor: bossActor });
    // A disabled admin cannot sign in: still the last one.
    await expect(setStaffRole(db(), { id: boss.id, role: "marketing", actor: bossActor })).rejects.toThrow(
      LAST_ADMIN_MESSAGE,
    );
    await setStaffDisabled(db(), { id: alice.id, disabled: false, actor: bossActor });
    await expect(setStaffRole(db(), { id: boss.id, role: "sales", actor: bossActor })).resolves.toMatchObject(
      {
        role: "sales",
      },
    );
    // Now alice is the last admin: she cannot be made sales either.
    await expect(setStaffRole(db(), { id: alice.id, role: "sales", actor: bossActor })).rejects.toThrow(
      LAST_ADMIN_MESSAGE,
    );
  });

  it("leaves one admin when two admins demote each other at once", async () => {
    const peer = await addAdmin("peer");
    const peerActor = { id: peer.id, username: peer.username };
    await Promise.allSettled([
      setStaffRole(db(), { id: peer.id, role: "sales", actor: bossActor }),
      setStaffRole(db(), { id: boss.id, role: "marketing", actor: peerActor }),
    ]);
    expect((await listStaff(db())).filter((one) => one.role === "admin")).toHaveLength(1);
  });
});
