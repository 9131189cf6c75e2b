import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../app/db/database.server.ts";
import { verifyPassword } from "../app/features/auth/password.server.ts";
import { passwordFromPipedText } from "./lib/piped-password.ts";

// Issue 9 point 10: `printf 'pw\npw\n' | npm run admin:create -- name` stored "pw\npw", a password
// nobody can type into the sign-in form.

const script = join(import.meta.dirname, "admin-user.ts");
const PASSWORD = "Long-Password-01";

describe("passwordFromPipedText", () => {
  it("takes the first line, checks an optional confirmation and refuses more lines", () => {
    expect(passwordFromPipedText(PASSWORD)).toBe(PASSWORD);
    expect(passwordFromPipedText(`${PASSWORD}\n`)).toBe(PASSWORD);
    expect(passwordFromPipedText(`${PASSWORD}\r\n${PASSWORD}\r\n`)).toBe(PASSWORD);
    expect(passwordFromPipedText(" spaces count \n")).toBe(" spaces count ");
    expect(() => passwordFromPipedText(`${PASSWORD}\nLong-Password-02\n`)).toThrow(
      "The two passwords differ.",
    );
    expect(() => passwordFromPipedText(`${PASSWORD}\n${PASSWORD}\n${PASSWORD}\n`)).toThrow(/3 lines/);
    expect(() => passwordFromPipedText(`${PASSWORD}\n\n\n`)).toThrow(/3 lines/);
  });
});

describe("npm run admin:create / admin:set-password with a piped password", () => {
  let dir: string;
  let databaseUrl: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "admin-cli-"));
    databaseUrl = join(dir, "cli.sqlite");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the script as `npm run` does, with `input` on standard input (a pipe, not a terminal). */
  const run = (args: string[], input: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      // cwd: the temporary folder, so no developer's .env is read.
      const child = spawn(process.execPath, [script, ...args], {
        cwd: dir,
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
      // The script may refuse before reading everything: a broken pipe is expected then.
      child.stdin.on("error", () => {});
      child.stdin.end(input);
    });

  const storedHash = async (username: string) => {
    const database = openDatabase(databaseUrl);
    try {
      const row = await database.db
        .selectFrom("users")
        .select("passwordHash")
        .where("usernameKey", "=", username)
        .executeTakeFirst();
      return row?.passwordHash;
    } finally {
      await database.close();
    }
  };

  it("stores the first line when the password is piped twice, so it signs in as typed", async () => {
    const result = await run(["create", "piped-admin"], `${PASSWORD}\n${PASSWORD}\n`);
    expect(result).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Created the admin "piped-admin"'),
    });
    const hash = (await storedHash("piped-admin")) ?? "";
    expect(await verifyPassword(PASSWORD, hash)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}\n${PASSWORD}`, hash)).toBe(false);
  }, 30_000);

  it("refuses two different lines, more than two lines and more than 4 KB, and creates nothing", async () => {
    for (const [input, message] of [
      [`${PASSWORD}\nLong-Password-02\n`, "The two passwords differ."],
      [`${PASSWORD}\n${PASSWORD}\n${PASSWORD}\n`, "The input has 3 lines"],
      ["x".repeat(5000), "The input is longer than 4 KB"],
    ] as const) {
      const result = await run(["create", "refused-admin"], input);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain(PASSWORD);
    }
    expect(await storedHash("refused-admin")).toBeUndefined();
  }, 60_000);

  it("sets a password the same way: the first line, a confirmation checked", async () => {
    const next = "Another-Long-Password-02";
    expect((await run(["set-password", "piped-admin"], `${next}\n${PASSWORD}\n`)).code).toBe(1);
    expect(await verifyPassword(PASSWORD, (await storedHash("piped-admin")) ?? "")).toBe(true);
    const result = await run(["set-password", "piped-admin"], `${next}\n${next}\n`);
    expect(result).toMatchObject({ code: 0 });
    expect(await verifyPassword(next, (await storedHash("piped-admin")) ?? "")).toBe(true);
  }, 60_000);

  it("keeps a disabled account disabled when it gets a new password, says so, and records both in the staff history", async () => {
    const database = openDatabase(databaseUrl);
    try {
      await database.db
        .updateTable("users")
        .set({ disabled: 1 })
        .where("usernameKey", "=", "piped-admin")
        .execute();
      const next = "Third-Long-Password-03";
      const result = await run(["set-password", "piped-admin"], `${next}\n`);
      expect(result).toMatchObject({
        code: 0,
        stdout: expect.stringContaining("The account is disabled and stays disabled"),
      });
      const row = await database.db
        .selectFrom("users")
        .select(["disabled", "passwordHash"])
        .where("usernameKey", "=", "piped-admin")
        .executeTakeFirstOrThrow();
      expect(row.disabled).toBe(1);
      expect(await verifyPassword(next, row.passwordHash)).toBe(true);
      const events = await database.db
        .selectFrom("staffEvents")
        .select(["action", "actorUsername", "actorUserId"])
        .orderBy("id")
        .execute();
      expect(events).toEqual([
        { action: "created", actorUsername: "command line", actorUserId: null },
        { action: "password_reset", actorUsername: "command line", actorUserId: null },
        { action: "password_reset", actorUsername: "command line", actorUserId: null },
      ]);
      expect((await run(["set-password", "nobody-here"], `${next}\n`)).stderr).toContain(
        'No user named "nobody-here".',
      );
    } finally {
      await database.close();
    }
  }, 60_000);
});
