import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

// The servers this process started and has not seen exit. When this process ends without stopping
// one (a test worker that Vitest stops with SIGTERM after a failure or a timeout, a script that
// throws), it is killed with it: a server must never outlive the test or script that started it
// (issue 33). `exit` covers a normal end and process.exit(); the signals' default action skips
// `exit` handlers, so on a signal nothing else handles, the servers go first, then the signal
// takes its course.
const running = new Set<ChildProcess>();
let exitHooksInstalled = false;

function killRunning(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  running.clear();
}

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on("exit", killRunning);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    const onSignal = () => {
      // Another handler (scripts/lib/run-main.ts) stops the servers its own way and exits.
      if (process.listenerCount(signal) > 1) return;
      killRunning();
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

export type RunningServer = {
  url: string;
  pid: number | undefined;
  /** What the server printed (both streams) until it was listening: start-up hints, warnings. */
  startupOutput: string;
  /** Everything it printed so far (the request log included). */
  output(): string;
  /** What it printed on stdout alone so far: the JSON log (start-up hints go to stderr). */
  stdout(): string;
  stop(): Promise<void>;
};

/**
 * Starts the production server (`node server.ts`, needs a build) on a free port of 127.0.0.1 (or
 * `port`, where a restarted instance must come back) and resolves once it is listening. Used by
 * the e2e tests, Lighthouse and the benchmark. `checkout`: another checkout's server.ts and build
 * (npm run bench:compare measures a git ref's), this one's by default.
 */
export async function startServer(
  env: Record<string, string> = {},
  { port = 0, checkout = root }: { port?: number; checkout?: string } = {},
): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ["server.ts"], {
    cwd: checkout,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  installExitHooks();
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  let stdout = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Never leave a half-started server behind (it would hold its port and database).
      child.kill("SIGKILL");
      reject(
        new Error(
          "server.ts did not start within 60 s (it must print 'listening on'; LOG_LEVEL=silent hides it)",
        ),
      );
      // Generous: it starts in 1-3 s, but a busy two-core machine running browsers can take far longer.
    }, 60_000);
    // "Server listening on …" is a start-up hint, on stderr (stdout is the JSON log alone).
    let started = false;
    const listening = () => {
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1] && !started) {
        started = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
      listening();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      // Its warnings and errors once it runs; the start-up hints before that stay in startupOutput
      // (and in the error when it does not start).
      if (started) process.stderr.write(chunk);
      listening();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server.ts exited early with code ${code}:\n${output.slice(-4000)}`));
    });
  });
  return {
    url,
    pid: child.pid,
    startupOutput: output,
    output: () => output,
    stdout: () => stdout,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      // Graceful shutdown waits for open keep-alive sockets; do not wait forever.
      const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(force);
    },
  };
}
