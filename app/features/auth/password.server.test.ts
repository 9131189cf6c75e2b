import { scrypt } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  hashPassword,
  PRODUCTION_PARAMETERS,
  scryptParameters,
  TEST_PARAMETERS,
  verifyAgainstNothing,
  verifyPassword,
} from "./password.server.ts";

const PASSWORD = "correct horse battery staple";

describe("password hashing", () => {
  it("stores scrypt with its parameters, a 16-byte salt and a 32-byte key, never the password", async () => {
    const stored = await hashPassword(PASSWORD);
    // Under Vitest new hashes get the test cost (N = 2^10); the format is the production one's.
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(Buffer.from(PASSWORD).toString("base64url"));
  });

  it("hashes at N = 2^15, r = 8, p = 1 outside a test run, and when a test asks for the production cost", () => {
    expect(PRODUCTION_PARAMETERS).toEqual({ N: 32768, r: 8, p: 1 });
    expect(scryptParameters({})).toBe(PRODUCTION_PARAMETERS);
    expect(scryptParameters({ NODE_ENV: "production" })).toBe(PRODUCTION_PARAMETERS);
    expect(scryptParameters({ VITEST: "true", PASSWORD_HASH_COST: "production" })).toBe(
      PRODUCTION_PARAMETERS,
    );
    expect(scryptParameters({ VITEST: "true" })).toBe(TEST_PARAMETERS);
  });

  it("verifies a hash made at the production cost (its parameters travel with it)", async () => {
    // A real production hash of PASSWORD would be a fixture; one made here at that cost is the same.
    const { N, r, p } = PRODUCTION_PARAMETERS;
    const stored = await hashPassword(PASSWORD);
    const [, , , , salt] = stored.split("$");
    // Derived asynchronously (libuv's pool), as the server does: a synchronous scrypt at this cost
    // would hold the test worker's event loop for a tenth of a second or more.
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt(
        PASSWORD,
        Buffer.from(salt ?? "", "base64url"),
        32,
        { N, r, p, maxmem: 64 * 1024 * 1024 },
        (error, derived) => (error ? reject(error) : resolve(derived)),
      ),
    );
    const production = ["scrypt", N, r, p, salt, key.toString("base64url")].join("$");
    await expect(verifyPassword(PASSWORD, production)).resolves.toBe(true);
    await expect(verifyPassword(`${PASSWORD}!`, production)).resolves.toBe(false);
  });

  it("accepts the right password and refuses a wrong one", async () => {
    const stored = await hashPassword(PASSWORD);
    await expect(verifyPassword(PASSWORD, stored)).resolves.toBe(true);
    await expect(verifyPassword(`${PASSWORD}!`, stored)).resolves.toBe(false);
    await expect(verifyPassword(PASSWORD.toUpperCase(), stored)).resolves.toBe(false);
    await expect(verifyPassword("", stored)).resolves.toBe(false);
  });

  it("treats canonically equivalent Unicode spellings as one password", async () => {
    // "é" typed as one code point on one keyboard and as e + combining accent on another.
    const stored = await hashPassword("caf\u00e9 au lait, s'il vous pla\u00eet");
    await expect(verifyPassword("cafe\u0301 au lait, s'il vous pla\u00eet", stored)).resolves.toBe(true);
  });

  it("salts every hash: the same password twice gives two different stored values", async () => {
    const [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    expect(first).not.toBe(second);
    expect(first.split("$")[4]).not.toBe(second.split("$")[4]);
    await expect(verifyPassword(PASSWORD, first)).resolves.toBe(true);
    await expect(verifyPassword(PASSWORD, second)).resolves.toBe(true);
  });

  it("answers false, without throwing, for any malformed stored value", async () => {
    const stored = await hashPassword(PASSWORD);
    const [, n, r, p, salt, key] = stored.split("$");
    const malformed = [
      "",
      PASSWORD,
      "scrypt",
      "scrypt$$$$$",
      `bcrypt$${n}$${r}$${p}$${salt}$${key}`,
      `scrypt$${n}$${r}$${p}$${salt}$`,
      `scrypt$${n}$${r}$${p}$$${key}`,
      `scrypt$${n}$${r}$${p}$${salt}$!!!!`,
      `scrypt$abc$${r}$${p}$${salt}$${key}`,
      `scrypt$3$${r}$${p}$${salt}$${key}`,
      `scrypt$${2 ** 40}$${r}$${p}$${salt}$${key}`,
      `scrypt$${2 ** 24}$${r}$${p}$${salt}$${key}`,
      `scrypt$${n}$-1$${p}$${salt}$${key}`,
    ];
    for (const value of malformed) {
      await expect(verifyPassword(PASSWORD, value), value).resolves.toBe(false);
    }
  });

  it("spends a password check on an unknown user too, and always says no", async () => {
    await expect(verifyAgainstNothing(PASSWORD)).resolves.toBe(false);
    await expect(verifyAgainstNothing("")).resolves.toBe(false);
  });
});
