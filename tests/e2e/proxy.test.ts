import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";

// Behind a TLS-terminating proxy (TRUST_PROXY=1) the app learns the scheme from X-Forwarded-Proto.

describe("behind a trusted TLS proxy", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: "1", HSTS: "auto" });
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(["/", "/no-such-page"])(
    "sends HSTS and upgrades insecure requests for HTTPS on %s",
    async (path) => {
      const response = await fetch(new URL(path, server.url), { headers: { "X-Forwarded-Proto": "https" } });
      expect(response.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
      expect(response.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    },
  );

  it("sends neither for plain HTTP", async () => {
    const response = await fetch(new URL("/", server.url), { headers: { "X-Forwarded-Proto": "http" } });
    expect(response.headers.get("strict-transport-security")).toBeNull();
    expect(response.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });
});

describe("with HSTS=always", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ HSTS: "always" });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("sends HSTS even when the app cannot see TLS", async () => {
    const response = await fetch(new URL("/", server.url));
    expect(response.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
  });
});

describe("with an invalid configuration", () => {
  it("refuses to start and names the bad variable", async () => {
    await expect(startServer({ HSTS: "sometimes" })).rejects.toThrow(/exited early with code 1/);
  });
});
