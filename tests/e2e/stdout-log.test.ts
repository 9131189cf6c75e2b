import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";

// stdout is the log, one JSON object a line (issue 22): requests, the retention purge and shutdown
// included, so `jq` reads all of it. Start-up hints are plain lines on stderr.

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "stdout-log-e2e-"));
  server = await startServer({ DATABASE_URL: join(dir, "app.sqlite"), LEAD_MIN_FILL_SECONDS: "0" });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it("prints only JSON lines on stdout from start to shutdown: requests, the retention purge, SIGTERM", async () => {
  for (const path of ["/", "/problem", "/no-such-page", "/healthz", "/metrics"])
    await (await fetch(`${server.url}${path}`)).text();
  const lead = await fetch(`${server.url}/api/demo-request`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      fullName: "Log Reader",
      email: "log.reader@example.com",
      company: "Jq Builders Ltd",
      phone: "+44 20 7946 0002",
      message: "Every line parses",
    }),
  });
  expect(lead.status).toBe(201);
  // The purge runs at start-up; its line and the requests' are written within a second (LOG_FLUSH_MS).
  for (let i = 0; i < 100 && !server.stdout().includes("Retention purge"); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  await server.stop();

  const lines = server.stdout().split("\n");
  expect(lines.pop()).toBe(""); // Ends with a newline, nothing after it.
  const notJson = lines.filter((line) => {
    try {
      return typeof JSON.parse(line) !== "object";
    } catch {
      return true;
    }
  });
  expect(notJson).toEqual([]);
  const messages = lines.map((line) => (JSON.parse(line) as { msg?: string }).msg ?? "");
  expect(messages.filter((msg) => msg === "request").length).toBeGreaterThanOrEqual(4);
  expect(messages.some((msg) => msg.startsWith("Retention purge"))).toBe(true);
  expect(messages).toContain("SIGTERM received, closing the server");

  // The start-up hints are still there, on stderr.
  expect(server.startupOutput).toMatch(/Database: SQLite/);
  expect(server.startupOutput).toMatch(/listening on http:/);
  expect(server.stdout()).not.toMatch(/Database: |listening on|Metrics: |No admin account/);
});
