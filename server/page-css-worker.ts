import { Worker } from "node:worker_threads";

// The studio's pages (issue 24) get the same stylesheet cut as the prerendered ones (page-css.ts),
// when the server first renders them. The cut parses the whole stylesheet and the page's scripts:
// tens of milliseconds of CPU, so it runs in a worker thread of its own, one page at a time, never
// on the event loop. A cut that fails or overruns leaves the page uncached (it is rendered per
// request instead), never broken.

import type { Answer, Job } from "./page-css-thread.ts";

const CUT_BUDGET_MS = 15_000;

export type PageCssCutter = {
  /** `html` with its inline stylesheet cut to what the page can use; rejects on failure or overrun. */
  cut(html: string, path: string): Promise<string>;
  /** Starts the thread and loads its modules now, so the first page after start-up does not wait. */
  warm(): void;
  close(): Promise<void>;
};

export function createPageCssCutter(clientDir: string): PageCssCutter {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve(html: string): void; reject(error: Error): void; timer: NodeJS.Timeout }
  >();

  const failAll = (error: Error) => {
    for (const [id, job] of pending) {
      clearTimeout(job.timer);
      job.reject(error);
      pending.delete(id);
    }
  };

  const start = (): Worker => {
    if (worker) return worker;
    const started = new Worker(new URL("./page-css-thread.ts", import.meta.url), {
      workerData: { clientDir },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    started.unref();
    started.on("message", ({ id, html, error }: Answer) => {
      const job = pending.get(id);
      if (!job) return;
      pending.delete(id);
      clearTimeout(job.timer);
      if (html !== undefined) job.resolve(html);
      else job.reject(new Error(error ?? "The stylesheet cut failed."));
    });
    started.on("error", (error) => {
      worker = undefined;
      failAll(error);
    });
    started.on("exit", () => {
      if (worker === started) worker = undefined;
      failAll(new Error("The stylesheet worker stopped."));
    });
    worker = started;
    return started;
  };

  return {
    cut(html, path) {
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error("The stylesheet cut took too long."));
          // A stuck cut holds the thread: start afresh for the next page.
          void worker?.terminate();
          worker = undefined;
        }, CUT_BUDGET_MS);
        pending.set(id, { resolve, reject, timer });
        start().postMessage({ id, html, path } satisfies Job);
      });
    },
    warm() {
      this.cut("<style>.warm{color:red}</style>", "/").catch(() => {});
    },
    async close() {
      failAll(new Error("The stylesheet worker was closed."));
      await worker?.terminate();
      worker = undefined;
    },
  };
}
