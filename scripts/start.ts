// `npm start`: builds once when no production build exists (a fresh clone), then runs server.ts in
// this process (package.json `exec`s it in npm's shell's place: stopping npm stops the server).
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
/** Where a first start's build writes its output (issue 32: 230 lines hid the next step). */
const BUILD_LOG = join(root, "build.log");

const needsBuild =
  !existsSync(join(root, "build", "server", "index.js")) ||
  !existsSync(join(root, "build", "static-manifest.json"));

/**
 * `npm run build`, its output in BUILD_LOG: on stderr one line before and one after (the build's
 * summary), so the server's start-up hints (the first admin to create) follow within a few lines.
 * A failed build shows the end of its log. Stopping this process meanwhile stops the build too.
 */
async function buildOnce(): Promise<void> {
  const shown = relative(process.cwd(), BUILD_LOG) || BUILD_LOG;
  console.error(
    `No production build yet: running \`npm run build\` first (about a minute; output in ${shown}).`,
  );
  const started = Date.now();
  const log = openSync(BUILD_LOG, "w");
  // Its own process group, so a signal to this process can stop the whole build (npm, sh, Vite…).
  const build = spawn("npm", ["run", "build"], { cwd: root, stdio: ["ignore", log, log], detached: true });
  closeSync(log);
  const stopBuild = (signal: NodeJS.Signals) => {
    try {
      if (build.pid) process.kill(-build.pid, signal);
    } catch {
      // Already gone.
    }
    process.exit(1);
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const signal of signals) process.on(signal, stopBuild);
  const status = await new Promise<number>((resolve) => {
    build.on("error", () => resolve(1));
    build.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  for (const signal of signals) process.off(signal, stopBuild);
  const output = readFileSync(BUILD_LOG, "utf8");
  if (status !== 0) {
    console.error(output.trimEnd().split("\n").slice(-30).join("\n"));
    console.error(`The build failed (exit ${status}); its whole output is in ${shown}.`);
    process.exit(status);
  }
  // postbuild's last line: how many static files, and their size.
  const summary = output
    .split("\n")
    .filter((line) => line.startsWith("postbuild: ") && line.includes("static files"))
    .at(-1)
    ?.replace(/^postbuild: /, "");
  const seconds = Math.round((Date.now() - started) / 1000);
  console.error(`Built in ${seconds} s${summary ? `: ${summary}` : ""} (${shown}).`);
}

if (needsBuild) await buildOnce();

await import("../server.ts");
