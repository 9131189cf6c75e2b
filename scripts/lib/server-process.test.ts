import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";

// Issue 33: a server a test starts must not outlive the test's process, even when that process
// dies without stopping it (Vitest stops a worker with SIGTERM; a script throws). A stand-in
// server.ts in a temporary checkout (startServer's `checkout`) says it listens and then waits.

const checkout = mkdtempSync(join(tmpdir(), "server-process-test-"));
writeFileSync(
  join(checkout, "server.ts"),
  'console.error("Server listening on http://127.0.0.1:1"); setInterval(() => {}, 1000);\n',
);
const serverProcess = pathToFileURL(join(import.meta.dirname, "server-process.ts")).href;
const servers: number[] = [];

function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!running(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !running(pid);
}

/**
 * A process that starts the stand-in server, prints its pid, and does `then` (JavaScript) once a
 * line comes on its stdin (`go()`).
 */
async function owner(then: string) {
  const source = `
    const { startServer } = await import(${JSON.stringify(serverProcess)});
    const server = await startServer({}, { checkout: ${JSON.stringify(checkout)} });
    console.log(server.pid);
    process.stdin.once("data", async () => { ${then} });
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!/^\d+\n/.test(out) && Date.now() < deadline && child.exitCode === null)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const server = Number.parseInt(out, 10);
  if (!(server > 0)) throw new Error(`the server did not start: ${out}${err}`);
  servers.push(server);
  expect(running(server)).toBe(true);
  return { child, server, exited, go: () => child.stdin.write("go\n") };
}

afterEach(() => {
  for (const pid of servers.splice(0)) if (running(pid)) process.kill(pid, "SIGKILL");
});
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

describe("startServer's servers end with the process that started them", () => {
  it("when that process is stopped with SIGTERM (as Vitest stops a worker)", async () => {
    const { child, server, exited } = await owner("");
    child.kill("SIGTERM");
    await exited;
    expect(child.signalCode).toBe("SIGTERM");
    expect(await waitUntilGone(server)).toBe(true);
  });

  it("when that process exits without stopping it (an error thrown)", async () => {
    const { child, server, exited, go } = await owner('throw new Error("the test failed");');
    go();
    await exited;
    expect(child.exitCode).toBe(1);
    expect(await waitUntilGone(server)).toBe(true);
  });

  it("and a server stopped with stop() is not signalled again at exit", async () => {
    const { child, server, exited, go } = await owner("await server.stop(); process.exit(0);");
    go();
    await exited;
    expect(child.exitCode).toBe(0);
    expect(await waitUntilGone(server)).toBe(true);
  });
});
