import { parentPort, workerData } from "node:worker_threads";
import { withPageCss } from "./page-css.ts";
import type { SizeCache } from "./page-javascript.ts";

// The worker thread of page-css-worker.ts: cuts one page's stylesheet at a time.

export type Job = { id: number; html: string; path: string };
export type Answer = { id: number; html?: string; error?: string };

if (parentPort) {
  const port = parentPort;
  const { clientDir } = workerData as { clientDir: string };
  // The scripts' sizes and imports, read once for every page.
  const cache: SizeCache = new Map();
  port.on("message", ({ id, html, path }: Job) => {
    try {
      port.postMessage({ id, html: withPageCss(html, path, clientDir, cache) } satisfies Answer);
    } catch (error) {
      port.postMessage({ id, error: (error as Error).message } satisfies Answer);
    }
  });
}
