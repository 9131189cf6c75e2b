import { type RunningServer, startServer } from "./server-process.ts";

export type BenchResources = {
  /** Starts the production server (see startServer); `cleanup` stops it if the script has not. */
  startServer(env: Record<string, string>): Promise<RunningServer>;
  /** Something to undo at the end (a temporary folder, a database, a schema), last added first. */
  defer(task: () => Promise<void>): void;
  /** For runMain: stops the servers still running, then runs the deferred tasks, ignoring their errors. */
  cleanup(): Promise<void>;
};

/**
 * What a benchmark script started and must undo, on success, error or Ctrl-C alike (runMain's
 * cleanup), so no server process or temporary database outlives it. Servers run from `checkout`
 * (another checkout's build, for npm run bench:compare) when given.
 */
export function benchResources(checkout?: string): BenchResources {
  const servers = new Set<RunningServer>();
  const tasks: (() => Promise<void>)[] = [];
  return {
    async startServer(env) {
      const server = await startServer(env, { checkout });
      servers.add(server);
      return server;
    },
    defer(task) {
      tasks.push(task);
    },
    async cleanup() {
      // Stopping a server that has already stopped does nothing.
      for (const server of [...servers]) {
        servers.delete(server);
        await server.stop();
      }
      for (const task of tasks.splice(0).reverse()) await task().catch(() => {});
    },
  };
}
