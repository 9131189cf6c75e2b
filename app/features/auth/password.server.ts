import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

// Passwords are hashed with scrypt (memory-hard, in node:crypto: no native add-on). The parameters
// travel with each hash, so they can be raised later without invalidating existing passwords.
type ScryptParameters = { readonly N: number; readonly r: number; readonly p: number };
export const PRODUCTION_PARAMETERS: ScryptParameters = { N: 2 ** 15, r: 8, p: 1 };
/** A thirty-second of the production cost: the same code path, for test runs only. */
export const TEST_PARAMETERS: ScryptParameters = { N: 2 ** 10, r: 8, p: 1 };

/**
 * The cost new hashes get. Under Vitest (which sets VITEST in its workers, and the servers the e2e
 * tests start inherit it) the test cost, unless PASSWORD_HASH_COST=production: the suite signs in
 * thousands of times, and at the production cost a quarter of its time went to scrypt. A test that
 * needs the real cost (the hashing queue's burst) asks for it. Nothing else reads these variables,
 * and a production process has neither.
 */
export function scryptParameters(env: NodeJS.ProcessEnv = process.env): ScryptParameters {
  return env.VITEST && env.PASSWORD_HASH_COST !== "production" ? TEST_PARAMETERS : PRODUCTION_PARAMETERS;
}

const PARAMETERS = scryptParameters();
const KEY_LENGTH = 32;
// scrypt needs 128 * N * r bytes (32 MiB here); Node's default ceiling is exactly that.
const MAX_MEMORY = 64 * 1024 * 1024;

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-rules.ts";

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, length, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS, KEY_LENGTH);
  const { N, r, p } = PARAMETERS;
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Constant-time comparison; false for any malformed stored value. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  if (expected.length === 0) return false;
  let actual: Buffer;
  try {
    actual = await derive(
      password,
      Buffer.from(salt, "base64url"),
      { N: Number(n), r: Number(r), p: Number(p) },
      expected.length,
    );
  } catch {
    // Parameters scrypt refuses (a corrupted or hand-edited row) make a failed sign-in, not a 500.
    return false;
  }
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for an unknown username: the answer to a login
 * then takes as long whether or not the account exists (no user enumeration by timing).
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(password, await dummyHash);
  return false;
}
