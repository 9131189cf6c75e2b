import { beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { verifyPassword } from "./password.server.ts";
import {
  countAdmins,
  createUser,
  findUserByUsername,
  passwordProblem,
  UserInputError,
} from "./users.server.ts";

const PASSWORD = "a long enough passphrase";

describeEachDatabase("users", (use) => {
  beforeEach(async () => {
    await use().db.deleteFrom("sessions").execute();
    await use().db.deleteFrom("users").execute();
  });

  it("creates a user whose public shape has no password hash, and stores only a scrypt hash", async () => {
    const user = await createUser(use().db, { username: " Alice.Admin ", password: PASSWORD, isAdmin: true });
    expect(user).toEqual({ id: expect.any(Number), username: "Alice.Admin", role: "admin", isAdmin: true });
    const row = await findUserByUsername(use().db, "alice.admin");
    expect(row).toMatchObject({ username: "Alice.Admin", usernameKey: "alice.admin", isAdmin: 1 });
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    expect(row?.passwordHash).not.toContain(PASSWORD);
    await expect(verifyPassword(PASSWORD, row?.passwordHash ?? "")).resolves.toBe(true);
  });

  it("finds a user whatever the case of the username", async () => {
    await createUser(use().db, { username: "Bob", password: PASSWORD, isAdmin: false });
    for (const spelling of ["Bob", "bob", "BOB", "  bOb "]) {
      expect((await findUserByUsername(use().db, spelling))?.username).toBe("Bob");
    }
    expect(await findUserByUsername(use().db, "bobby")).toBeUndefined();
  });

  it("refuses a second account with the same username in another case", async () => {
    await createUser(use().db, { username: "Carol", password: PASSWORD, isAdmin: true });
    await expect(
      createUser(use().db, { username: "CAROL", password: PASSWORD, isAdmin: false }),
    ).rejects.toThrow(new UserInputError('A user named "Carol" already exists.'));
    const rows = await use().db.selectFrom("users").select("id").execute();
    expect(rows).toHaveLength(1);
  });

  it("is protected by the database too: two writers racing on one name leave one row", async () => {
    const attempts = await Promise.allSettled(
      ["dave", "DAVE", "Dave"].map((username) =>
        createUser(use().db, { username, password: PASSWORD, isAdmin: false }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === "fulfilled")).toHaveLength(1);
    const rows = await use().db.selectFrom("users").select("id").execute();
    expect(rows).toHaveLength(1);
  });

  it("applies the password and username rules", async () => {
    expect(passwordProblem("x".repeat(11))).toMatch(/at least 12/);
    expect(passwordProblem("x".repeat(12))).toBeNull();
    expect(passwordProblem("x".repeat(256))).toBeNull();
    expect(passwordProblem("x".repeat(257))).toMatch(/at most 256/);
    // The sign-in form refuses NUL, so such a password could never be used.
    expect(passwordProblem(`${"x".repeat(12)}\u0000`)).toMatch(/NUL/);
    const create = (username: string, password = PASSWORD) =>
      createUser(use().db, { username, password, isAdmin: false });
    await expect(create("eve", "short")).rejects.toBeInstanceOf(UserInputError);
    for (const username of ["ab", "x".repeat(65), "has space", "semi;colon", "quote'", ""]) {
      await expect(create(username), username).rejects.toBeInstanceOf(UserInputError);
    }
    await expect(create("ok.name_with-all@chars")).resolves.toMatchObject({
      username: "ok.name_with-all@chars",
    });
    const rows = await use().db.selectFrom("users").select("username").execute();
    expect(rows.map((row) => row.username)).toEqual(["ok.name_with-all@chars"]);
  });

  it("counts admins only", async () => {
    await expect(countAdmins(use().db)).resolves.toBe(0);
    await createUser(use().db, { username: "ivan", password: PASSWORD, isAdmin: false });
    await expect(countAdmins(use().db)).resolves.toBe(0);
    await createUser(use().db, { username: "judy", password: PASSWORD, isAdmin: true });
    await createUser(use().db, { username: "mallory", password: PASSWORD, isAdmin: true });
    await expect(countAdmins(use().db)).resolves.toBe(2);
  });
});
