import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { signIn } from "./support/accounts.ts";

// The audit API as deployed by default (AUDIT_ALLOW_PRIVATE_TARGETS unset): admin only, and no
// request ever reaches this machine, the private network or a cloud metadata service.

const ADMIN = { username: "audit-admin", password: "audit admin passphrase" };
let server: RunningServer;
let dataDir: string;
let cookie = "";

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "audit-api-"));
  server = await startServer({
    DATABASE_URL: join(dataDir, "audit.sqlite"),
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  cookie = await signIn(server.url, ADMIN.username, ADMIN.password);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, withCookie = true) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: new URL(server.url).origin,
      ...(withCookie ? { Cookie: cookie } : {}),
    },
    body: JSON.stringify(body),
  });

describe("the audit API", () => {
  it("answers 401 without a session, storing nothing", async () => {
    expect((await post("/api/admin/security-audit", { url: "https://example.com" }, false)).status).toBe(401);
    expect((await post("/api/admin/performance-check", { url: "https://example.com" }, false)).status).toBe(
      401,
    );
    expect((await fetch(`${server.url}/api/admin/security-audits`)).status).toBe(401);
    expect((await post("/api/admin/tls-check", { url: "https://example.com" }, false)).status).toBe(401);
  });

  it("answers 400 for an empty or non-web URL", async () => {
    expect((await post("/api/admin/security-audit", { url: "" })).status).toBe(400);
    expect((await post("/api/admin/security-audit", { url: "ftp://example.com/" })).status).toBe(400);
    expect((await post("/api/admin/performance-check", { url: "javascript:alert(1)" })).status).toBe(400);
    expect((await post("/api/admin/tls-check", { url: "javascript:alert(1)" })).status).toBe(400);
    expect((await post("/api/admin/tls-check", { url: "http://example.com/" })).status).toBe(400);
  });

  const refused = [
    (server) => server.url, // this very server, on 127.0.0.1
    () => "http://localhost/",
    () => "http://[::1]/",
    () => "http://0.0.0.0/",
    () => "http://169.254.169.254/latest/meta-data/",
    () => "http://10.0.0.1/",
    () => "http://172.16.5.4/",
    () => "http://192.168.1.1/",
    () => "http://2130706433/",
    () => "http://0x7f000001/",
    () => "http://0177.0.0.1/",
    () => "http://[::ffff:127.0.0.1]/",
  ] satisfies ((server: RunningServer) => string)[];

  it.each(refused.map((target) => [target]))(
    "refuses %# (a private or local target) by default",
    async (target) => {
      const url = target(server);
      const audit = await post("/api/admin/security-audit", { url });
      expect(audit.status).toBe(422);
      const body = (await audit.json()) as { message: string; error: string; details: string };
      expect(body.error).toBe("Refused");
      // Private targets: how to allow them; cloud metadata: that the switch does not.
      expect(body.details).toMatch(/AUDIT_ALLOW_PRIVATE_TARGETS/);
      const check = await post("/api/admin/performance-check", { url });
      expect(check.status).toBe(200);
      expect(((await check.json()) as { error: string }).error).toBe("Refused");
      // The TLS check refuses the same targets (over https: it checks nothing else).
      const tls = await post("/api/admin/tls-check", { url: url.replace(/^http:/, "https:") });
      expect(tls.status).toBe(200);
      const tlsBody = (await tls.json()) as { error: string; details: string; certificate: unknown };
      expect(tlsBody).toMatchObject({ error: "Refused", certificate: null });
      expect(tlsBody.details).toMatch(/AUDIT_ALLOW_PRIVATE_TARGETS/);
    },
  );

  it("stored no audit for any refused target", async () => {
    const list = await fetch(`${server.url}/api/admin/security-audits`, { headers: { Cookie: cookie } });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([]);
  });
});
