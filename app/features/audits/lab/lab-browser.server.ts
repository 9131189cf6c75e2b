import { type ChildProcess, spawn } from "node:child_process";

// Starts Chromium for one lab run and finds its DevTools port. Spawned in the caller's process group
// (not detached, unlike chrome-launcher's own launch), so that the server's SIGKILL of the lab
// child's group takes the browser and every renderer with it.

export type LaunchedChromium = { port: number; process: ChildProcess; kill(): void };

export async function launchChromium(
  path: string,
  flags: string[],
  { timeoutMs = 20_000 }: { timeoutMs?: number } = {},
): Promise<LaunchedChromium> {
  const browser = spawn(path, [...flags, "about:blank"], { stdio: ["ignore", "ignore", "pipe"] });
  const kill = () => {
    if (browser.exitCode === null && browser.signalCode === null) browser.kill("SIGKILL");
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let seen = "";
      const timer = setTimeout(() => reject(new Error("Chromium did not start within 20 s.")), timeoutMs);
      browser.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      browser.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited at start (${signal ?? `exit code ${code}`}): ${seen.slice(-400)}`));
      });
      browser.stderr?.on("data", (chunk: Buffer) => {
        // Only the start matters (the DevTools line); past it, stderr is drained and dropped.
        if (seen.length > 16_384) return;
        seen += chunk.toString();
        const match = /DevTools listening on ws:\/\/[^\s/]+:(\d+)\//.exec(seen);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
    });
    browser.removeAllListeners("exit");
    return { port, process: browser, kill };
  } catch (error) {
    kill();
    throw error;
  }
}
