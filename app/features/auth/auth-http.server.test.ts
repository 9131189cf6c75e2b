import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { clientAddressContext, provideServices } from "#app/lib/service-context.server.ts";
import { action as loginPageAction } from "../../routes/admin/login.tsx";
import { type AuthServices, authServicesKey } from "./auth-context.server.ts";
import { handleLoginApi, handleSecondStepApi } from "./auth-http.server.ts";
import type { LoginResult } from "./auth-service.server.ts";

// What POST /api/login and the login page's form answer for each sign-in outcome the service
// reports; the simple viewer signs in through POST /api/login and shows its message.

const BUSY = "The server is busy checking other sign-ins. Please try again in a few seconds.";

function contextAnswering(result: LoginResult) {
  const context = new RouterContextProvider();
  provideServices(context, [
    [authServicesKey, { auth: { login: async () => result } } as unknown as AuthServices],
  ]);
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

describe("device cookies and second-step answers (issue 22)", () => {
  const signedIn = {
    kind: "ok",
    user: { id: 1, username: "admin", isAdmin: true },
    token: "t".repeat(43),
    maxAgeSeconds: 3600,
    device: { token: "new-device-token", maxAgeSeconds: 7_776_000 },
  } as const;

  it("sends the browser's device cookie to the sign-in and sets a fresh one, HttpOnly and Strict", async () => {
    const seen: unknown[][] = [];
    const context = new RouterContextProvider();
    provideServices(context, [
      [
        authServicesKey,
        {
          auth: {
            login: async (...args: unknown[]) => {
              seen.push(args);
              return signedIn;
            },
          },
        } as unknown as AuthServices,
      ],
    ]);
    context.set(clientAddressContext, "203.0.113.1");
    const request = apiRequest();
    request.headers.set("Cookie", "__Host-device=old-device-token");
    const answer = await handleLoginApi(request, context);
    expect(answer.status).toBe(200);
    expect(seen[0]?.[5]).toBe("old-device-token");
    expect(answer.headers.getSetCookie()).toContain(
      "__Host-device=new-device-token; Path=/; Max-Age=7776000; SameSite=Strict; Secure; HttpOnly",
    );
  });

  const secondStepContext = (result: unknown) => {
    const context = new RouterContextProvider();
    provideServices(context, [
      [
        authServicesKey,
        {
          auth: { completeSecondStep: async () => result },
        } as unknown as AuthServices,
      ],
    ]);
    context.set(clientAddressContext, "203.0.113.1");
    return context;
  };
  const codeRequest = () =>
    new Request("https://www.example.test/api/login/2fa", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://www.example.test" },
      body: JSON.stringify({ code: "123456" }),
    });
  const codeForm = () =>
    new Request("https://www.example.test/admin/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://www.example.test" },
      body: new URLSearchParams({ intent: "code", code: "123456" }),
    });

  it("says a code that was just used is spent and to wait for the next, on the API and the login page", async () => {
    const spent = { kind: "invalid", spent: true };
    const message = "That code has just been used. Please wait for the next code from your app.";
    const api = await handleSecondStepApi(codeRequest(), secondStepContext(spent));
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ message });
    const page = (await loginPageAction({
      request: codeForm(),
      context: secondStepContext(spent),
      params: {},
    } as never)) as unknown as { data: { step: string; message: string }; init: { status: number } };
    expect(page.data).toEqual({ step: "code", message });
    expect(page.init.status).toBe(401);
  });

  it("sends the person back to the password after too many wrong codes", async () => {
    const api = await handleSecondStepApi(codeRequest(), secondStepContext({ kind: "too-many-codes" }));
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({
      message: "Too many wrong codes. Please enter your username and password again.",
      signInAgain: true,
    });
    expect(api.headers.getSetCookie()[0]).toMatch(/^__Host-pending_login=; .*Max-Age=0/);
  });
});
