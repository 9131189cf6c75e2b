import { openDatabase } from "../../../app/db/database.server.ts";
import { createUser } from "../../../app/features/auth/users.server.ts";

/** Adds a user straight to a server's database (for accounts the product has no screen to create). */
export async function createAccount(
  databaseUrl: string,
  account: { username: string; password: string; isAdmin: boolean },
): Promise<void> {
  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    await createUser(database.db, account);
  } finally {
    await database.close();
  }
}

/**
 * Signs in through POST /api/login and returns the Cookie header value that carries the session.
 * `userAgent` signs in as that browser would (the sessions list names it). A 503 (too many
 * passwords being checked at once, as when other suites sign in meanwhile) is retried after its
 * Retry-After, a bounded number of times.
 */
export async function signIn(
  baseUrl: string,
  username: string,
  password: string,
  userAgent?: string,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${baseUrl}/api/login`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: new URL(baseUrl).origin,
        ...(userAgent ? { "User-Agent": userAgent } : {}),
      },
      body: JSON.stringify({ username, password }),
    });
    if (response.status === 503 && attempt < 10) {
      await response.arrayBuffer();
      const seconds = Math.min(Number(response.headers.get("retry-after")) || 1, 5);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    if (!response.ok)
      throw new Error(`sign-in as ${username} failed: ${response.status} ${await response.text()}`);
    return response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
  }
}
