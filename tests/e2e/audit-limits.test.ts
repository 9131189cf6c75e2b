import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileServer, startHostileServer } from "../../app/features/audits/testing/hostile-page.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { signIn } from "./support/accounts.ts";

// Issue 9 point 11, through the running server: audits wait for a slot and, when the queue is full,
// get 503 "busy, try again" with Retry-After, on the API and on the page's no-JavaScript form; a
// hostile 2 MB page of tiny tags is graded without taking the server down. Not timed: the server
// runs one audit at a time and queues none, and the test holds the first audit's target open.

const ADMIN = { username: "limits-admin", password: "limits admin passphrase" };
const BUSY = "The audit service is busy: other audits are running and waiting. Please try again in a minute.";
let app: RunningServer;
let dataDir: string;
let cookie = "";
let hostile: HostileServer;
let slow: http.Server;
let slowUrl = "";
let slowRequests = 0;
let releaseSlow = () => {};
const released = new Promise<void>((resolve) => {
  releaseSlow = resolve;
});

beforeAll(async () => {
  hostile = await startHostileServer();
  // Answers nothing until the test releases it, so the audit of it keeps its slot.
  slow = http.createServer((_request, response) => {
    slowRequests += 1;
    void released.then(() => {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end("<!doctype html><title>slow</title><p>ok</p>");
    });
  });
  await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
  dataDir = mkdtempSync(join(tmpdir(), "audit-limits-"));
  app = await startServer({
    DATABASE_URL: join(dataDir, "audit.sqlite"),
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    AUDIT_ALLOW_PRIVATE_TARGETS: "true",
    AUDIT_MAX_RUNNING: "1",
    AUDIT_MAX_QUEUED: "0",
  });
  cookie = await signIn(app.url, ADMIN.username, ADMIN.password);
}, 60_000);

afterAll(async () => {
  releaseSlow();
  await app?.stop();
  await hostile?.close();
  slow?.closeAllConnections();
  await new Promise((resolve) => slow?.close(resolve));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const postJson = (path: string, body: unknown) =>
  fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: new URL(app.url).origin, Cookie: cookie },
    body: JSON.stringify(body),
  });

describe("audit limits", () => {
  it("answers 503 with Retry-After and a clear message while the audits are full, then runs again", async () => {
    const first = postJson("/api/admin/security-audit", { url: slowUrl });
    await expect.poll(() => slowRequests, { timeout: 15_000 }).toBeGreaterThan(0);

    const refused = await postJson("/api/admin/security-audit", { url: hostile.url });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.json()).toEqual({ message: BUSY, error: "Busy", details: BUSY });

    const check = await postJson("/api/admin/performance-check", { url: hostile.url });
    expect(check.status).toBe(503);
    expect(check.headers.get("retry-after")).toBe("30");
    expect(((await check.json()) as { message: string }).message).toBe(BUSY);

    // The page's form without JavaScript says the same.
    const page = await fetch(`${app.url}/admin/audit`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: new URL(app.url).origin,
        Cookie: cookie,
      },
      body: new URLSearchParams({ intent: "audit", url: hostile.url }),
    });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("30");
    const html = await page.text();
    expect(html).toContain("Security Audit Failed");
    expect(html).toContain(BUSY);

    releaseSlow();
    expect((await first).status).toBe(201);
  });

  it("grades a hostile 2 MB page of tiny tags and stays up; refused audits stored nothing", async () => {
    const answer = await postJson("/api/admin/security-audit", { url: hostile.url });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({ url: hostile.url, grade: "F", algorithmVersion: 5 });
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    const list = await fetch(`${app.url}/api/admin/security-audits`, { headers: { Cookie: cookie } });
    const urls = ((await list.json()) as { url: string }[]).map((audit) => audit.url);
    expect(urls.sort()).toEqual([hostile.url, slowUrl].sort());
  });
});
