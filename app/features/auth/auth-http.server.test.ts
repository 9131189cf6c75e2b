import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { type AppServices, clientAddressContext, servicesContext } from "#app/services.server.ts";
import { action as loginPageAction } from "../../routes/admin/login.tsx";
import { handleLoginApi } from "./auth-http.server.ts";
import type { LoginResult } from "./auth-service.server.ts";

// What POST /api/login and the login page's form answer for each sign-in outcome the service
// reports; the simple viewer signs in through POST /api/login and shows its message.

const BUSY = "The server is busy checking other sign-ins. Please try again in a few seconds.";

function contextAnswering(result: LoginResult) {
  const context = new RouterContextProvider();
  context.set(servicesContext, { auth: { login: async () => result } } as unknown as AppServices);
  context.set(clientAddressContext, "203.0.113.1");
  return context;
}

const apiRequest = () =>
  new Request("https://www.example.test/api/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "https://www.example.test" },
    body: JSON.stringify({ username: "admin", password: "a long passphrase" }),
  });

const formRequest = () =>
  new Request("https://www.example.test/admin/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://www.example.test" },
    body: new URLSearchParams({ username: "admin", password: "a long passphrase" }),
  });

type PageData = { data: { message: string }; init: { status: number; headers: Record<string, string> } };

describe("sign-in answers", () => {
  it("answers busy with 503, Retry-After: 2 and the busy message, on the API and the login page", async () => {
    const api = await handleLoginApi(apiRequest(), contextAnswering({ kind: "busy" }));
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("2");
    expect(await api.json()).toEqual({ message: BUSY });

    const page = (await loginPageAction({
      request: formRequest(),
      context: contextAnswering({ kind: "busy" }),
      params: {},
    } as never)) as unknown as PageData;
    expect(page.data.message).toBe(BUSY);
    expect(page.init).toMatchObject({ status: 503, headers: { "Retry-After": "2" } });
  });

  it("answers throttled with 429, Retry-After and the spec's message", async () => {
    const api = await handleLoginApi(
      apiRequest(),
      contextAnswering({ kind: "throttled", retryAfterSeconds: 61 }),
    );
    expect(api.status).toBe(429);
    expect(api.headers.get("retry-after")).toBe("61");
    expect(await api.json()).toEqual({ message: "Too many login attempts. Please try again in 2 minutes." });
  });
});
