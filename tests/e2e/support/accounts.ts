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

/** Signs in through POST /api/login and returns the Cookie header value that carries the session. */
export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: new URL(baseUrl).origin },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok)
    throw new Error(`sign-in as ${username} failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
