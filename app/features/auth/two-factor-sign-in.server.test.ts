import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { createAuthService } from "./auth-service.server.ts";
import { createHashingQueue } from "./hashing-queue.server.ts";
import { createLoginThrottle } from "./login-throttle.server.ts";
import { PENDING_LOGIN_TTL_MS } from "./pending-logins.server.ts";
import { hashToken } from "./sessions.server.ts";
import { setStaffDisabled } from "./staff.server.ts";
import { COMMAND_LINE_ACTOR } from "./staff-events.server.ts";
import { totpCode } from "./two-factor.server.ts";
import {
  reopenColleagueTwoFactorCodes,
  reopenTwoFactorCodes,
  resetColleagueTwoFactor,
  resetTwoFactor,
} from "./two-factor-store.server.ts";
import { createUser, type PublicUser } from "./users.server.ts";

// Issue 13, two-factor sign-in (ADR 017), on both databases: enrolment and its confirmation, the
// second step with a code or a recovery code, replay, throttling, the pending login's life, the
// STAFF_2FA_REQUIRED flow, turning it off, an admin's reset, and what the access log keeps.

const SECRET = "test-secret-test-secret-test-secret";
const PASSWORD = "a two-factor passphrase";

/** The recovery codes of a confirmation that turned two-factor on; undefined for any refusal. */
const codesOf = (result: unknown): string[] | undefined =>
  typeof result === "object" && result !== null && "recoveryCodes" in result
    ? (result as { recoveryCodes: string[] }).recoveryCodes
    : undefined;
const NOW = new Date("2026-11-26T10:00:05.000Z");
const at = (ms: number) => new Date(NOW.getTime() + ms);
const STEP = 30_000;

describeEachDatabase("two-factor sign-in", (use) => {
  const db = () => use().db;
  let address = 0;
  const newClient = () => `203.0.113.${(++address % 250) + 1}`;
  const service = ({ required = false, userLimit = 100 } = {}) =>
    createAuthService({
      db: db(),
      policy: { idleMs: 2 * 3_600_000, absoluteMs: 24 * 3_600_000 },
      throttle: createLoginThrottle({
        db: db(),
        secret: SECRET,
        limits: { userAddress: 5, address: 20, user: userLimit },
      }),
      hashing: createHashingQueue(),
      secret: SECRET,
      twoFactorRequired: required,
    });
  let userNumber = 0;
  const newUser = (isAdmin = true) =>
    createUser(db(), { username: `tf-user-${++userNumber}`, password: PASSWORD, isAdmin });

  /** Turns two-factor sign-in on for `user` at NOW; its secret and recovery codes. */
  async function enrol(user: PublicUser, now = NOW) {
    const auth = service();
    const { secret } = await auth.twoFactor.enrol(user);
    const confirmed = await auth.twoFactor.confirm(
      user,
      totpCode(secret, now.getTime()),
      PASSWORD,
      newClient(),
      now,
    );
    const recoveryCodes = codesOf(confirmed);
    if (!recoveryCodes) throw new Error("enrolment was not confirmed");
    return { secret, recoveryCodes };
  }

  const accessLog = (userId: number) =>
    db()
      .selectFrom("accessLog")
      .select(["action", "detail"])
      .where((eb) => eb.or([eb("actorUserId", "=", userId), eb("subjectUserId", "=", userId)]))
      .orderBy("id")
      .execute();

  beforeAll(async () => {
    await db().deleteFrom("users").execute();
  });
  beforeEach(async () => {
    await db().deleteFrom("loginAttempts").execute();
  });

  it("enrols only once a code from the new secret is right, keeping the secret encrypted and the codes hashed", async () => {
    const user = await newUser();
    const auth = service();
    const { secret, qrSvg, uri } = await auth.twoFactor.enrol(user);
    expect(qrSvg).toMatch(/^<svg/);
    expect(uri).toContain(`secret=${secret}`);
    // Asking again (a reload) shows the same secret: the one the app may have scanned already.
    expect((await auth.twoFactor.enrol(user)).secret).toBe(secret);
    expect(await auth.twoFactor.status(user.id)).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    const wrong = String((Number(totpCode(secret, NOW.getTime())) + 1) % 1_000_000).padStart(6, "0");
    expect(await auth.twoFactor.confirm(user, wrong, PASSWORD, newClient(), NOW)).toBeNull();
    // A session alone is not enough: the right code with a wrong password leaves it off.
    expect(
      await auth.twoFactor.confirm(
        user,
        totpCode(secret, NOW.getTime()),
        "not the password",
        newClient(),
        NOW,
      ),
    ).toBe("invalid");
    expect((await auth.twoFactor.status(user.id)).enabled).toBe(false);

    const confirmed = codesOf(
      await auth.twoFactor.confirm(user, totpCode(secret, NOW.getTime()), PASSWORD, newClient(), NOW),
    );
    expect(confirmed).toHaveLength(10);
    expect(new Set(confirmed).size).toBe(10);
    expect(await auth.twoFactor.status(user.id)).toEqual({
      enabled: true,
      enabledAt: NOW.toISOString(),
      recoveryCodesLeft: 10,
    });
    const row = await db()
      .selectFrom("users")
      .select(["totpSecret"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.totpSecret).toMatch(/^v1\./);
    expect(row.totpSecret).not.toContain(secret);
    const stored = JSON.stringify(
      await db().selectFrom("recoveryCodes").selectAll().where("userId", "=", user.id).execute(),
    );
    for (const code of confirmed ?? []) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
    // On now: no second enrolment over it.
    await expect(auth.twoFactor.enrol(user)).rejects.toThrow(/already on/);
    expect(await accessLog(user.id)).toEqual([{ action: "two_factor_enabled", detail: null }]);
  });

  it("asks for a second step after the password: no session, only a pending login used once", async () => {
    const user = await newUser();
    const { secret } = await enrol(user);
    const auth = service();
    const client = newClient();
    const later = at(5 * STEP);
    const first = await auth.login(user.username, PASSWORD, client, later);
    expect(first).toEqual({
      kind: "second-step",
      username: user.username,
      purpose: "verify",
      pendingToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      maxAgeSeconds: 300,
    });
    if (first.kind !== "second-step") return;
    expect(
      await db().selectFrom("sessions").select("userId").where("userId", "=", user.id).execute(),
    ).toEqual([]);
    const pending = await db()
      .selectFrom("pendingLogins")
      .select(["tokenHash", "purpose", "expiresAt"])
      .where("userId", "=", user.id)
      .execute();
    expect(pending).toEqual([
      {
        tokenHash: hashToken(first.pendingToken),
        purpose: "verify",
        expiresAt: new Date(later.getTime() + PENDING_LOGIN_TTL_MS).toISOString(),
      },
    ]);
    expect(await auth.pendingLogin(first.pendingToken, later)).toEqual({
      username: user.username,
      purpose: "verify",
    });

    expect(await auth.completeSecondStep(first.pendingToken, "000000", client, later)).toEqual(
      totpCode(secret, later.getTime()) === "000000" ? expect.anything() : { kind: "invalid" },
    );
    const done = await auth.completeSecondStep(
      first.pendingToken,
      totpCode(secret, later.getTime()),
      client,
      later,
    );
    expect(done).toMatchObject({ kind: "ok", user: { id: user.id, username: user.username, isAdmin: true } });
    if (done.kind !== "ok") return;
    await expect(auth.currentUser(done.token, later)).resolves.toEqual(done.user);
    // Used: the same cookie opens nothing again, whatever the code.
    expect(
      await auth.completeSecondStep(
        first.pendingToken,
        totpCode(secret, at(6 * STEP).getTime()),
        client,
        at(6 * STEP),
      ),
    ).toEqual({ kind: "expired" });
    expect(await auth.completeSecondStep(undefined, "123456", client, later)).toEqual({ kind: "expired" });
    expect(await auth.completeSecondStep("not-a-token", "123456", client, later)).toEqual({
      kind: "expired",
    });

    const log = await accessLog(user.id);
    expect(log.slice(-2).map((entry) => [entry.action, JSON.parse(entry.detail ?? "{}")])).toEqual([
      ["sign_in_failed", { step: "two-factor" }],
      ["sign_in", { browser: "Unknown browser", twoFactor: "app" }],
    ]);
  });

  it("never accepts one time step twice (replay), nor an older one after a newer, but takes the next step", async () => {
    const user = await newUser();
    const { secret } = await enrol(user);
    const auth = service();
    const when = at(10 * STEP);
    const code = totpCode(secret, when.getTime());
    const pendingAt = async (now: Date) => {
      const result = await auth.login(user.username, PASSWORD, newClient(), now);
      if (result.kind !== "second-step") throw new Error(`expected a second step, got ${result.kind}`);
      return result.pendingToken;
    };
    expect((await auth.completeSecondStep(await pendingAt(when), code, newClient(), when)).kind).toBe("ok");
    // The same code again, a second later: refused, and said to be spent (wait for the next one).
    const replay = at(10 * STEP + 1000);
    expect(await auth.completeSecondStep(await pendingAt(replay), code, newClient(), replay)).toEqual({
      kind: "invalid",
      spent: true,
    });
    // The previous step's code is within the window but older than the one used: refused too.
    const previous = totpCode(secret, when.getTime() - STEP);
    if (previous !== code)
      expect(await auth.completeSecondStep(await pendingAt(replay), previous, newClient(), replay)).toEqual({
        kind: "invalid",
        spent: true,
      });
    // The next step's code (a phone a little ahead) is accepted once.
    const next = totpCode(secret, when.getTime() + STEP);
    expect((await auth.completeSecondStep(await pendingAt(replay), next, newClient(), replay)).kind).toBe(
      "ok",
    );
    // Two requests racing with one fresh code: one wins.
    const race = at(13 * STEP);
    const fresh = totpCode(secret, race.getTime());
    const [a, b] = await Promise.all([pendingAt(race), pendingAt(race)]);
    const results = await Promise.all([
      auth.completeSecondStep(a, fresh, newClient(), race),
      auth.completeSecondStep(b, fresh, newClient(), race),
    ]);
    expect(results.map((result) => result.kind).sort()).toEqual(["invalid", "ok"]);
  });

  it("lets each recovery code sign in once, and records what is left", async () => {
    const user = await newUser();
    const { recoveryCodes } = await enrol(user);
    const auth = service();
    const [code = ""] = recoveryCodes;
    const pending = async () => {
      const result = await auth.login(user.username, PASSWORD, newClient(), NOW);
      return result.kind === "second-step" ? result.pendingToken : "";
    };
    // Typed loosely (lower case, a space for the dash) it still counts.
    const typed = code.toLowerCase().replace("-", " ");
    expect((await auth.completeSecondStep(await pending(), typed, newClient(), NOW)).kind).toBe("ok");
    expect(await auth.completeSecondStep(await pending(), code, newClient(), NOW)).toEqual({
      kind: "invalid",
    });
    expect((await auth.twoFactor.status(user.id)).recoveryCodesLeft).toBe(9);
    const log = await accessLog(user.id);
    expect(log.filter((entry) => entry.action === "two_factor_recovery_used")).toEqual([
      { action: "two_factor_recovery_used", detail: JSON.stringify({ left: 9 }) },
    ]);
    expect(log.find((entry) => entry.action === "sign_in")?.detail).toContain('"twoFactor":"recovery"');
  });

  it("counts wrong codes on the password's throttle, and a right password does not wipe them", async () => {
    const user = await newUser();
    const { secret } = await enrol(user);
    // Past the step the enrolment used (that one is spent).
    const LATER = at(STEP);
    const auth = service();
    const guesser = "198.51.100.77";
    const started = await auth.login(user.username, PASSWORD, guesser, LATER);
    if (started.kind !== "second-step") throw new Error("expected a second step");
    const right = totpCode(secret, LATER.getTime());
    const wrongCodes = ["000000", "111111", "222222", "333333", "444444", "555555"].filter(
      (code) => code !== right,
    );
    for (const code of wrongCodes.slice(0, 4))
      expect(await auth.completeSecondStep(started.pendingToken, code, guesser, LATER)).toEqual({
        kind: "invalid",
      });
    // The fifth wrong code ends the pending login (issue 22 point 2)…
    expect(await auth.completeSecondStep(started.pendingToken, wrongCodes[4] ?? "", guesser, LATER)).toEqual({
      kind: "too-many-codes",
    });
    expect(await auth.completeSecondStep(started.pendingToken, right, guesser, LATER)).toEqual({
      kind: "expired",
    });
    // …and the password again is refused from that address: the codes counted on its counters.
    expect((await auth.login(user.username, PASSWORD, guesser, LATER)).kind).toBe("throttled");
    // The owner, from their own address, still gets in.
    const owner = newClient();
    const theirs = await auth.login(user.username, PASSWORD, owner, LATER);
    if (theirs.kind !== "second-step") throw new Error("expected a second step");
    expect((await auth.completeSecondStep(theirs.pendingToken, right, owner, LATER)).kind).toBe("ok");
  });

  it("checks at most 5 codes per pending login, from however many addresses (issue 22 point 2)", async () => {
    const user = await newUser();
    const { secret } = await enrol(user);
    const LATER = at(STEP);
    const auth = service();
    const started = await auth.login(user.username, PASSWORD, newClient(), LATER);
    if (started.kind !== "second-step") throw new Error("expected a second step");
    const right = totpCode(secret, LATER.getTime());
    const wrong = ["000000", "111111", "222222", "333333", "444444", "555555"].filter(
      (code) => code !== right,
    );
    // Five wrong codes in parallel, each from an address of its own: all checked, none more.
    const results = await Promise.all(
      wrong
        .slice(0, 5)
        .map((code) => auth.completeSecondStep(started.pendingToken, code, newClient(), LATER)),
    );
    expect(results.map((result) => result.kind).sort()).toEqual([
      "invalid",
      "invalid",
      "invalid",
      "invalid",
      "too-many-codes",
    ]);
    // The pending login is gone: even the right code opens nothing; the password is needed again.
    expect((await auth.completeSecondStep(started.pendingToken, right, newClient(), LATER)).kind).toBe(
      "expired",
    );
    expect(
      await db().selectFrom("sessions").select("userId").where("userId", "=", user.id).execute(),
    ).toEqual([]);
  });

  it("never lets wrong codes from elsewhere lock the owner's trusted browser out", async () => {
    const user = await newUser();
    const { secret } = await enrol(user);
    // The account's counter at 12 rather than 100, so the attack below is quick; the rule is the same.
    const auth = service({ userLimit: 12 });
    const first = at(STEP);
    // The owner signed in on this browser before: it holds a device cookie.
    const ownerAddress = newClient();
    const before = await auth.login(user.username, PASSWORD, ownerAddress, first);
    if (before.kind !== "second-step") throw new Error("expected a second step");
    const signedIn = await auth.completeSecondStep(
      before.pendingToken,
      totpCode(secret, first.getTime()),
      ownerAddress,
      first,
    );
    if (signedIn.kind !== "ok") throw new Error(`expected a session, got ${signedIn.kind}`);
    // A thief with the password tries codes from many addresses until the account's counter is full.
    const attack = at(3 * STEP);
    let throttled = false;
    for (let n = 0; n < 20 && !throttled; n++) {
      const pending = await auth.login(user.username, PASSWORD, `198.18.${n}.1`, attack);
      if (pending.kind === "throttled") throttled = true;
      if (pending.kind !== "second-step") continue;
      for (const code of ["000001", "000002"]) {
        const result = await auth.completeSecondStep(
          pending.pendingToken,
          code,
          `198.19.${n}.${code.at(-1)}`,
          attack,
        );
        if (result.kind === "throttled") throttled = true;
      }
    }
    expect(throttled).toBe(true);
    expect((await auth.login(user.username, PASSWORD, newClient(), attack)).kind).toBe("throttled");
    // The owner's browser, with its cookie, signs in with the password and the next code.
    const again = await auth.login(
      user.username,
      PASSWORD,
      ownerAddress,
      attack,
      null,
      signedIn.device.token,
    );
    if (again.kind !== "second-step") throw new Error(`expected a second step, got ${again.kind}`);
    const done = await auth.completeSecondStep(
      again.pendingToken,
      totpCode(secret, attack.getTime()),
      ownerAddress,
      attack,
      null,
      signedIn.device.token,
    );
    expect(done.kind).toBe("ok");
    // A cookie is bound to its account: it vouches for nobody else's sign-in.
    const other = await newUser();
    expect(
      (
        await auth.login(
          other.username,
          "a wrong passphrase!",
          ownerAddress,
          attack,
          null,
          signedIn.device.token,
        )
      ).kind,
    ).toBe("invalid");
  }, 60_000);

  describe("wrong codes per account and day (issue 32 point 3)", () => {
    const WRONG = ["000001", "000002", "000003", "000004", "000005"];
    /** A new pending login for `user` from a new untrusted client: its token and address. */
    async function pendingFrom(auth: ReturnType<typeof service>, username: string, now: Date) {
      const client = newClient();
      const started = await auth.login(username, PASSWORD, client, now);
      if (started.kind !== "second-step") throw new Error(`expected a second step, got ${started.kind}`);
      return { token: started.pendingToken, client };
    }
    /** The owner signs in once (password and code) on a browser that then holds a device cookie. */
    async function ownerBrowser(
      auth: ReturnType<typeof service>,
      username: string,
      secret: string,
      now: Date,
    ) {
      const address = newClient();
      const started = await auth.login(username, PASSWORD, address, now);
      if (started.kind !== "second-step") throw new Error("expected a second step");
      const done = await auth.completeSecondStep(
        started.pendingToken,
        totpCode(secret, now.getTime()),
        address,
        now,
      );
      if (done.kind !== "ok") throw new Error(`expected a session, got ${done.kind}`);
      return { address, device: done.device.token };
    }
    const codeLog = async (userId: number) =>
      (await accessLog(userId)).filter((row) => row.action.startsWith("two_factor_codes"));

    it("refuses untrusted clients' codes after 20 wrong ones in a day, tells the owner from the 5th, and never refuses the trusted browser", async () => {
      const user = await newUser();
      const { secret } = await enrol(user);
      // The password throttle's account counter out of the way: the day's count is what is tested.
      const auth = service({ userLimit: 10_000 });
      const owner = await ownerBrowser(auth, user.username, secret, at(STEP));
      const attack = at(3 * STEP);
      const right = totpCode(secret, attack.getTime());
      const wrong = WRONG.filter((code) => code !== right);
      // Four pending logins, five wrong codes each: 20 in all (each one used up by its fifth).
      for (let round = 0; round < 4; round++) {
        const { token, client } = await pendingFrom(auth, user.username, attack);
        for (const [n, code] of wrong.slice(0, 5).entries()) {
          const result = await auth.completeSecondStep(token, code, client, attack);
          expect(result.kind).toBe(n === 4 ? "too-many-codes" : "invalid");
        }
        if (round === 0) {
          // The fifth wrong code of the day: the access log says so, and the owner has a notice.
          expect(await codeLog(user.id)).toEqual([
            {
              action: "two_factor_codes_warned",
              detail: JSON.stringify({ wrongCodes: 5, day: "2026-11-26" }),
            },
          ]);
          expect(await auth.codeFailureNotices(user.id)).toEqual([{ day: "2026-11-26", wrongCodes: 5 }]);
        }
      }
      expect((await codeLog(user.id)).map((row) => row.action)).toEqual([
        "two_factor_codes_warned",
        "two_factor_codes_closed",
      ]);
      // The 21st code is refused before it is checked, the right one too, until the UTC day ends.
      const next = await pendingFrom(auth, user.username, attack);
      expect(await auth.completeSecondStep(next.token, right, next.client, attack)).toEqual({
        kind: "codes-closed",
        retryAfterSeconds: 14 * 3600 - 3 * 30 - 5,
      });
      expect(await auth.codeFailureNotices(user.id)).toEqual([{ day: "2026-11-26", wrongCodes: 20 }]);
      // The owner's browser is not refused: its wrong code counts on its own device counter only…
      const ownerPending = await auth.login(
        user.username,
        PASSWORD,
        owner.address,
        attack,
        null,
        owner.device,
      );
      if (ownerPending.kind !== "second-step") throw new Error("expected a second step");
      expect(
        await auth.completeSecondStep(
          ownerPending.pendingToken,
          wrong[0] ?? "",
          owner.address,
          attack,
          null,
          owner.device,
        ),
      ).toEqual({ kind: "invalid" });
      const signedIn = await auth.completeSecondStep(
        ownerPending.pendingToken,
        right,
        owner.address,
        attack,
        null,
        owner.device,
      );
      expect(signedIn.kind).toBe("ok");
      // …and its notice stays until they dismiss it.
      expect(await auth.codeFailureNotices(user.id)).toEqual([{ day: "2026-11-26", wrongCodes: 20 }]);
      await auth.dismissCodeFailureNotices(user.id, attack);
      expect(await auth.codeFailureNotices(user.id)).toEqual([]);
      // The next UTC day, untrusted clients may try again.
      const tomorrow = at(24 * 3_600_000);
      const fresh = await pendingFrom(auth, user.username, tomorrow);
      expect(
        (
          await auth.completeSecondStep(
            fresh.token,
            totpCode(secret, tomorrow.getTime()),
            fresh.client,
            tomorrow,
          )
        ).kind,
      ).toBe("ok");
    }, 60_000);

    it("counts parallel codes before checking them: 30 at once from 6 pending logins, exactly 20 checked", async () => {
      const user = await newUser();
      const { secret } = await enrol(user);
      const auth = service({ userLimit: 10_000 });
      const attack = at(3 * STEP);
      const right = totpCode(secret, attack.getTime());
      const wrong = WRONG.filter((code) => code !== right);
      const pendings = [];
      for (let n = 0; n < 6; n++) pendings.push(await pendingFrom(auth, user.username, attack));
      const results = await Promise.all(
        pendings.flatMap(({ token, client }) =>
          wrong.slice(0, 5).map((code) => auth.completeSecondStep(token, code, client, attack)),
        ),
      );
      const kinds: Record<string, number> = {};
      for (const result of results) kinds[result.kind] = (kinds[result.kind] ?? 0) + 1;
      expect((kinds.invalid ?? 0) + (kinds["too-many-codes"] ?? 0)).toBe(20);
      expect(kinds["codes-closed"]).toBe(10);
      const row = await db()
        .selectFrom("codeFailures")
        .select(["failures", "wrongCodes"])
        .where("userId", "=", user.id)
        .executeTakeFirstOrThrow();
      expect({ failures: Number(row.failures), wrongCodes: Number(row.wrongCodes) }).toEqual({
        failures: 20,
        wrongCodes: 20,
      });
    }, 60_000);

    it("reopens the code step when an admin (or the command line) says so, keeping two-factor on and the notice", async () => {
      const admin = await newUser();
      const user = await newUser();
      const { secret } = await enrol(user);
      const auth = service({ userLimit: 10_000 });
      const attack = at(3 * STEP);
      const right = totpCode(secret, attack.getTime());
      const wrong = WRONG.filter((code) => code !== right);
      for (let round = 0; round < 4; round++) {
        const { token, client } = await pendingFrom(auth, user.username, attack);
        for (const code of wrong.slice(0, 5)) await auth.completeSecondStep(token, code, client, attack);
      }
      const closed = await pendingFrom(auth, user.username, attack);
      expect((await auth.completeSecondStep(closed.token, right, closed.client, attack)).kind).toBe(
        "codes-closed",
      );
      // Not one's own; a colleague's, recorded on the staff page and in the access log.
      await expect(
        reopenColleagueTwoFactorCodes(
          db(),
          { id: user.id, actor: { id: user.id, username: user.username } },
          attack,
        ),
      ).rejects.toThrow();
      expect(
        await reopenColleagueTwoFactorCodes(
          db(),
          { id: user.id, actor: { id: admin.id, username: admin.username } },
          attack,
        ),
      ).toBe(true);
      expect(
        await db()
          .selectFrom("staffEvents")
          .select(["action", "actorUsername"])
          .where("userId", "=", user.id)
          .where("action", "=", "code_step_reopened")
          .execute(),
      ).toEqual([{ action: "code_step_reopened", actorUsername: admin.username }]);
      expect((await accessLog(user.id)).map((row) => row.action)).toContain("staff_code_step_reopened");
      expect((await auth.completeSecondStep(closed.token, right, closed.client, attack)).kind).toBe("ok");
      expect((await auth.twoFactor.status(user.id)).enabled).toBe(true);
      expect(await auth.codeFailureNotices(user.id)).toEqual([{ day: "2026-11-26", wrongCodes: 20 }]);
      // Nothing to reopen now: the command says so and records nothing.
      expect(await reopenTwoFactorCodes(db(), { id: user.id, actor: COMMAND_LINE_ACTOR }, attack)).toBe(
        false,
      );
      // A full reset reopens it too (a second factor set up again today starts with an open step).
      const later = at(5 * STEP);
      for (let round = 0; round < 4; round++) {
        const { token, client } = await pendingFrom(auth, user.username, later);
        for (const code of wrong.slice(0, 5)) await auth.completeSecondStep(token, code, client, later);
      }
      expect(
        await db()
          .selectFrom("codeFailures")
          .select("failures")
          .where("userId", "=", user.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ failures: 20 });
      await resetTwoFactor(db(), { id: user.id, actor: COMMAND_LINE_ACTOR }, later);
      expect(
        await db()
          .selectFrom("codeFailures")
          .select("failures")
          .where("userId", "=", user.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ failures: 0 });
    }, 60_000);
  });

  it("lets a pending login lapse after five minutes, and ends it when the account is disabled", async () => {
    const user = await newUser();
    const { secret } = await enrol(user);
    const auth = service();
    const started = await auth.login(user.username, PASSWORD, newClient(), NOW);
    if (started.kind !== "second-step") throw new Error("expected a second step");
    const late = at(PENDING_LOGIN_TTL_MS);
    expect(await auth.pendingLogin(started.pendingToken, late)).toBeNull();
    expect(
      await auth.completeSecondStep(
        started.pendingToken,
        totpCode(secret, late.getTime()),
        newClient(),
        late,
      ),
    ).toEqual({ kind: "expired" });

    const again = await auth.login(user.username, PASSWORD, newClient(), NOW);
    if (again.kind !== "second-step") throw new Error("expected a second step");
    await setStaffDisabled(db(), { id: user.id, disabled: true, actor: COMMAND_LINE_ACTOR }, NOW);
    expect(
      await db().selectFrom("pendingLogins").select("userId").where("userId", "=", user.id).execute(),
    ).toEqual([]);
    expect(
      await auth.completeSecondStep(
        again.pendingToken,
        totpCode(secret, at(STEP).getTime()),
        newClient(),
        NOW,
      ),
    ).toEqual({ kind: "expired" });
  });

  it("with STAFF_2FA_REQUIRED, never lets the password alone bind a second factor (issue 22 point 3)", async () => {
    const user = await newUser();
    const auth = service({ required: true });
    // Whoever has the password gets no set-up: no pending login, no secret to put on their phone.
    expect(await auth.login(user.username, PASSWORD, newClient(), NOW)).toEqual({ kind: "setup-required" });
    expect(
      await db().selectFrom("pendingLogins").select("userId").where("userId", "=", user.id).execute(),
    ).toEqual([]);
    // Without the requirement, or once it is on, a used link starts nothing.
    expect(await service().startLinkEnrolment(user.id, NOW)).toBeNull();
  });

  it("with STAFF_2FA_REQUIRED, enrols an account without it after its set-up link, and never turns it off", async () => {
    const user = await newUser();
    const auth = service({ required: true });
    const client = newClient();
    // What the set-password page does once the link was used (routes/admin/set-password.tsx).
    const started = await auth.startLinkEnrolment(user.id, NOW);
    if (!started) throw new Error("expected an enrolment");
    const view = await auth.pendingLogin(started.pendingToken, NOW);
    expect(view).toMatchObject({
      username: user.username,
      purpose: "enrol",
      enrolment: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/), qrSvg: expect.stringMatching(/^<svg/) },
    });
    const secret = view?.enrolment?.secret ?? "";
    // A second link gets a secret of its own: one seen elsewhere is never the one the owner confirms.
    const restarted = await auth.startLinkEnrolment(user.id, NOW);
    if (!restarted) throw new Error("expected an enrolment");
    const ownSecret = (await auth.pendingLogin(restarted.pendingToken, NOW))?.enrolment?.secret ?? "";
    expect(ownSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(ownSecret).not.toBe(secret);
    expect((await auth.pendingLogin(started.pendingToken, NOW))?.enrolment?.secret).toBe(secret);
    expect(await auth.completeSecondStep(restarted.pendingToken, "12345", client, NOW)).toEqual({
      kind: "invalid",
    });
    expect(
      await auth.completeSecondStep(restarted.pendingToken, totpCode(secret, NOW.getTime()), client, NOW),
    ).toEqual({ kind: "invalid" });
    const done = await auth.completeSecondStep(
      restarted.pendingToken,
      totpCode(ownSecret, NOW.getTime()),
      client,
      NOW,
    );
    expect(done).toMatchObject({ kind: "ok", user: { id: user.id }, recoveryCodes: expect.any(Array) });
    expect(done.kind === "ok" ? done.recoveryCodes : []).toHaveLength(10);
    expect((await auth.twoFactor.status(user.id)).enabled).toBe(true);
    expect(await auth.startLinkEnrolment(user.id, NOW)).toBeNull();
    // The other sign-in's secret can no longer be enrolled, nor does it open anything.
    expect(
      await auth.completeSecondStep(started.pendingToken, totpCode(secret, NOW.getTime()), client, NOW),
    ).toEqual({ kind: "invalid" });
    // From now on: a code of the confirmed secret, as for anyone with it on.
    const next = await auth.login(user.username, PASSWORD, client, at(STEP));
    expect(next).toMatchObject({ purpose: "verify" });
    if (next.kind !== "second-step") throw new Error("expected a second step");
    expect(
      await auth.completeSecondStep(
        next.pendingToken,
        totpCode(secret, at(STEP).getTime()),
        client,
        at(STEP),
      ),
    ).toEqual({ kind: "invalid" });
    expect(
      await auth.completeSecondStep(
        next.pendingToken,
        totpCode(ownSecret, at(STEP).getTime()),
        client,
        at(STEP),
      ),
    ).toMatchObject({ kind: "ok" });
    expect(await auth.twoFactor.disable(user, { password: PASSWORD }, client, at(STEP))).toBe("required");
    expect((await auth.twoFactor.status(user.id)).enabled).toBe(true);
  });

  it("turns off with a current code or the password, not a wrong one, and says so in the log", async () => {
    const user = await newUser();
    const { secret } = await enrol(user);
    const auth = service();
    const client = newClient();
    expect(await auth.twoFactor.disable(user, { password: "not the passphrase" }, client, NOW)).toBe(
      "invalid",
    );
    expect(await auth.twoFactor.disable(user, { code: "000000" }, client, at(STEP))).toBe(
      totpCode(secret, at(STEP).getTime()) === "000000" ? "off" : "invalid",
    );
    expect((await auth.twoFactor.status(user.id)).enabled).toBe(true);
    expect(
      await auth.twoFactor.disable(user, { code: totpCode(secret, at(STEP).getTime()) }, client, at(STEP)),
    ).toBe("off");
    expect(await auth.twoFactor.status(user.id)).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    expect(
      await db().selectFrom("recoveryCodes").select("userId").where("userId", "=", user.id).execute(),
    ).toEqual([]);
    expect((await auth.login(user.username, PASSWORD, client, at(2 * STEP))).kind).toBe("ok");

    const other = await newUser();
    await enrol(other);
    expect(await auth.twoFactor.disable(other, { password: PASSWORD }, client, NOW)).toBe("off");
    expect((await accessLog(other.id)).map((entry) => entry.action)).toEqual([
      "two_factor_enabled",
      "two_factor_disabled",
    ]);
  });

  it("makes new recovery codes on a current code: the old ones stop working", async () => {
    const user = await newUser();
    const { secret, recoveryCodes } = await enrol(user);
    const auth = service();
    expect(await auth.twoFactor.renewRecoveryCodes(user, "000000", newClient(), at(STEP))).toBe(
      totpCode(secret, at(STEP).getTime()) === "000000" ? expect.any(Array) : "invalid",
    );
    const renewed = await auth.twoFactor.renewRecoveryCodes(
      user,
      totpCode(secret, at(2 * STEP).getTime()),
      newClient(),
      at(2 * STEP),
    );
    expect(Array.isArray(renewed) && renewed.length).toBe(10);
    const started = await auth.login(user.username, PASSWORD, newClient(), at(3 * STEP));
    if (started.kind !== "second-step") throw new Error("expected a second step");
    expect(
      await auth.completeSecondStep(started.pendingToken, recoveryCodes[0] ?? "", newClient(), at(3 * STEP)),
    ).toEqual({
      kind: "invalid",
    });
    const fresh = Array.isArray(renewed) ? (renewed[0] ?? "") : "";
    expect((await auth.completeSecondStep(started.pendingToken, fresh, newClient(), at(3 * STEP))).kind).toBe(
      "ok",
    );
    expect((await accessLog(user.id)).map((entry) => entry.action)).toContain("two_factor_codes_renewed");
  });

  it("lets an admin reset a colleague's (recorded) but not their own, ending the colleague's pending sign-ins", async () => {
    const admin = await newUser();
    const colleague = await newUser();
    await enrol(colleague);
    const auth = service();
    const started = await auth.login(colleague.username, PASSWORD, newClient(), NOW);
    expect(started.kind).toBe("second-step");
    await expect(resetColleagueTwoFactor(db(), { id: admin.id, actor: admin })).rejects.toMatchObject({
      status: 409,
    });
    await expect(resetColleagueTwoFactor(db(), { id: 999_999, actor: admin })).rejects.toMatchObject({
      status: 404,
    });
    expect(await resetColleagueTwoFactor(db(), { id: colleague.id, actor: admin })).toBe(true);
    expect(
      await db().selectFrom("pendingLogins").select("userId").where("userId", "=", colleague.id).execute(),
    ).toEqual([]);
    expect((await auth.twoFactor.status(colleague.id)).enabled).toBe(false);
    // Their next sign-in is the password alone (the setting is off here).
    expect((await auth.login(colleague.username, PASSWORD, newClient(), NOW)).kind).toBe("ok");
    const events = await db()
      .selectFrom("staffEvents")
      .select(["action", "actorUsername"])
      .where("userId", "=", colleague.id)
      .execute();
    expect(events).toEqual([{ action: "two_factor_reset", actorUsername: admin.username }]);
    const log = await db()
      .selectFrom("accessLog")
      .select(["action", "actorUsername", "subjectUsername"])
      .where("action", "=", "staff_two_factor_reset")
      .where("subjectUserId", "=", colleague.id)
      .execute();
    expect(log).toEqual([
      {
        action: "staff_two_factor_reset",
        actorUsername: admin.username,
        subjectUsername: colleague.username,
      },
    ]);
    // Nothing to reset any more: nothing recorded.
    expect(await resetTwoFactor(db(), { id: colleague.id, actor: COMMAND_LINE_ACTOR })).toBe(false);
  });
});
