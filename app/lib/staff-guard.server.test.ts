import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { provideServices } from "./service-context.server.ts";
import {
  isCrossOrigin,
  type StaffUser as PublicUser,
  requireApiPermission,
  requireBackOfficePage,
  staffSessionsKey,
} from "./staff-guard.server.ts";

const ADMIN: PublicUser = { id: 1, username: "admin", role: "admin", isAdmin: true };
const STAFF: PublicUser = { id: 2, username: "staff", role: null, isAdmin: false };
const SALES: PublicUser = { id: 3, username: "seller", role: "sales", isAdmin: true };
const MARKETING: PublicUser = { id: 4, username: "marketer", role: "marketing", isAdmin: false };

/** A request context whose auth service knows one token. */
function contextWith(user: PublicUser | null) {
  const context = new RouterContextProvider();
  const sessions = {
    currentUser: async (request: Request) =>
      request.headers.get("cookie") === "session=valid-token" ? user : null,
  };
  provideServices(context, [[staffSessionsKey, sessions]]);
  return context;
}

const request = (path: string, headers: Record<string, string> = {}) =>
  new Request(`https://www.example.test${path}`, { headers: { Cookie: "session=valid-token", ...headers } });

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}

describe("requireApiPermission", () => {
  const leads = (user: PublicUser | null) =>
    requireApiPermission(request("/api/admin/leads"), contextWith(user), "leads.read");
  it("answers 401 without a user, 403 for a role without the permission, and returns one with it", async () => {
    const signedOut = await thrown(leads(null));
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ message: expect.any(String) });
    expect((await thrown(leads(STAFF))).status).toBe(403);
    expect((await thrown(leads(MARKETING))).status).toBe(403);
    await expect(leads(ADMIN)).resolves.toEqual(ADMIN);
    await expect(leads(SALES)).resolves.toEqual(SALES);
  });
});

describe("requireBackOfficePage", () => {
  it("sends a signed-out visitor to the login page, with the page to come back to", async () => {
    const response = await thrown(
      requireBackOfficePage(request("/admin/leads/7?tab=history"), contextWith(null)),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/login?next=%2Fadmin%2Fleads%2F7%3Ftab%3Dhistory");
  });

  it("comes back to the page, not its data, after a client-side navigation", async () => {
    const response = await thrown(
      requireBackOfficePage(
        request("/admin/dashboard.data?status=new&_routes=routes%2Fadmin%2Fdashboard"),
        contextWith(null),
      ),
    );
    expect(response.headers.get("Location")).toBe("/admin/login?next=%2Fadmin%2Fdashboard%3Fstatus%3Dnew");
  });

  it("sends a role without the page's permission home and lets one with it through", async () => {
    for (const user of [STAFF, MARKETING]) {
      const response = await thrown(requireBackOfficePage(request("/admin/dashboard"), contextWith(user)));
      expect(response.headers.get("Location")).toBe("/");
    }
    await expect(requireBackOfficePage(request("/admin/dashboard"), contextWith(ADMIN))).resolves.toEqual(
      ADMIN,
    );
    await expect(requireBackOfficePage(request("/admin/dashboard"), contextWith(SALES))).resolves.toEqual(
      SALES,
    );
    await expect(
      requireBackOfficePage(request("/admin/analytics.data"), contextWith(MARKETING)),
    ).resolves.toEqual(MARKETING);
  });

  it("refuses a back-office path the permission table does not list, even to an admin", async () => {
    const response = await thrown(requireBackOfficePage(request("/admin/unlisted"), contextWith(ADMIN)));
    expect(response.headers.get("Location")).toBe("/");
  });
});

describe("isCrossOrigin", () => {
  it.each([
    [{}, false],
    [{ "Sec-Fetch-Site": "same-origin" }, false],
    [{ "Sec-Fetch-Site": "none" }, false],
    [{ Origin: "https://www.example.test" }, false],
    [{ Origin: "https://www.example.test", "Sec-Fetch-Site": "same-origin" }, false],
    [{ "Sec-Fetch-Site": "cross-site" }, true],
    [{ "Sec-Fetch-Site": "same-site" }, true],
    [{ Origin: "https://evil.example" }, true],
    [{ Origin: "null" }, true],
    [{ Origin: "http://www.example.test" }, true],
    [{ Origin: "https://www.example.test:8443" }, true],
    [{ Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" }, true],
  ] as [Record<string, string>, boolean][])("%o → %s", (headers, expected) => {
    expect(
      isCrossOrigin(new Request("https://www.example.test/api/logout", { method: "POST", headers })),
    ).toBe(expected);
  });
});
