import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { escapeHtml, type PostImage, postMarkdownKit } from "./post-markdown.ts";

// A post's body to HTML on the server, off the event loop (issue 24). marked is fast on any text a
// person writes, but some bodies within the 100,000-character limit take it seconds (`_a` or `*a`
// repeated, a line of `!`: its inline rules go quadratic) or overflow its stack (100,000 `>`, lists
// nested in quotes). The public page, the private preview link (anyone holding it, on every request)
// and the editor render bodies, so each render runs here, in one worker thread, one body at a time,
// within a time budget. A body that overruns or overflows is shown as plain paragraphs instead, its
// text escaped, and remembered, so asking again costs nothing.

export type BodyRender =
  | { ok: true; html: string }
  /** `html` is the body as escaped plain paragraphs: readable, never run. */
  | { ok: false; reason: "too-slow" | "too-deep" | "busy"; html: string };

export type MarkdownRendererOptions = {
  /** How long one body may take (a 100,000-character article takes tens of milliseconds). */
  budgetMs?: number;
  /** Bodies that may wait for the thread; beyond, the plain paragraphs at once. */
  maxWaiting?: number;
};

export type MarkdownRenderer = {
  render(markdown: string, images?: ReadonlyMap<number, PostImage>): Promise<BodyRender>;
  close(): Promise<void>;
};

/** From when the thread starts on the body: the thread's own start (loading marked) is not counted. */
const DEFAULT_BUDGET_MS = 3_000;
/** Bodies known to fail, by hash: a hostile post asked for again and again is not rendered again. */
const MAX_REMEMBERED_FAILURES = 200;
/**
 * A body that overflowed the stack always will; one that overran may have met a busy machine, so it
 * is tried again after this long.
 */
const REMEMBER_SLOW_MS = 10 * 60_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { Marked } = require(workerData.markedPath);
const postMarkdownKit = ${postMarkdownKit.toString()};
const kit = postMarkdownKit(Marked);
parentPort.postMessage({ ready: true });
parentPort.on("message", ({ id, markdown, images }) => {
  try {
    parentPort.postMessage({ id, html: kit.render(markdown, new Map(images)) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof RangeError ? "too-deep" : String(error && error.message) });
  }
});
`;

/** The body as paragraphs of escaped text: linear in its length, whatever it holds. */
export function plainParagraphs(markdown: string): string {
  return markdown
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "")
    .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
    .join("\n");
}

type Job = {
  id: number;
  markdown: string;
  images: [number, PostImage][];
  resolve(outcome: BodyRender): void;
};

export function createMarkdownRenderer({
  budgetMs = DEFAULT_BUDGET_MS,
  maxWaiting = 32,
}: MarkdownRendererOptions = {}): MarkdownRenderer {
  const markedPath = createRequire(import.meta.url).resolve("marked");
  const failures = new Map<string, { reason: "too-slow" | "too-deep"; until: number }>();
  const queue: Job[] = [];
  let worker: Worker | undefined;
  /** The thread has loaded marked: a body's budget starts when it is handed to a ready thread. */
  let ready = false;
  let current: (Job & { timer: NodeJS.Timeout }) | undefined;
  let nextId = 1;

  const remember = (key: string, reason: "too-slow" | "too-deep") => {
    if (failures.size >= MAX_REMEMBERED_FAILURES) failures.delete(failures.keys().next().value as string);
    failures.set(key, {
      reason,
      until: reason === "too-deep" ? Number.POSITIVE_INFINITY : Date.now() + REMEMBER_SLOW_MS,
    });
  };

  const keyOf = (markdown: string, images: [number, PostImage][]) =>
    createHash("sha256").update(markdown).update("\0").update(JSON.stringify(images)).digest("base64url");

  function finish(outcome: BodyRender) {
    const job = current;
    if (!job) return;
    current = undefined;
    clearTimeout(job.timer);
    if (!outcome.ok && outcome.reason !== "busy") remember(keyOf(job.markdown, job.images), outcome.reason);
    job.resolve(outcome);
    next();
  }

  function start(): Worker {
    if (worker) return worker;
    ready = false;
    const started = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { markedPath },
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    started.unref();
    started.on("message", (message: { ready?: true; id: number; html?: string; error?: string }) => {
      if (message.ready) {
        if (worker !== started) return;
        ready = true;
        next();
        return;
      }
      const { id, html, error } = message;
      if (!current || current.id !== id) return;
      if (error && error !== "too-deep") console.error(`Rendering a post's body failed: ${error}`);
      if (html !== undefined) finish({ ok: true, html });
      else finish({ ok: false, reason: "too-deep", html: plainParagraphs(current.markdown) });
    });
    // The thread died under a body (out of memory): that body fails. A thread stopped for overrunning
    // is no longer `worker`, and the body it held was already answered.
    // A thread that never became ready (marked failed to load) fails the bodies waiting for it
    // rather than being started again and again.
    const lost = (error?: Error) => {
      if (worker !== started) return;
      const wasReady = ready;
      worker = undefined;
      ready = false;
      if (current) finish({ ok: false, reason: "too-deep", html: plainParagraphs(current.markdown) });
      else if (!wasReady) {
        if (error) console.error(`The post body renderer did not start: ${error.message}`);
        for (const job of queue.splice(0))
          job.resolve({ ok: false, reason: "busy", html: plainParagraphs(job.markdown) });
      }
    };
    started.on("error", lost);
    started.on("exit", lost);
    worker = started;
    return started;
  }

  function next() {
    if (current || queue.length === 0) return;
    if (!worker) start();
    if (!ready) return;
    const job = queue.shift();
    if (!job) return;
    const timer = setTimeout(() => {
      // A body still rendering holds the thread: stop it, and start afresh for the next one.
      const stuck = worker;
      worker = undefined;
      ready = false;
      finish({ ok: false, reason: "too-slow", html: plainParagraphs(job.markdown) });
      void stuck?.terminate();
    }, budgetMs);
    current = { ...job, timer };
    worker?.postMessage({ id: job.id, markdown: job.markdown, images: job.images });
  }

  return {
    render(markdown, images = new Map()) {
      const entries = [...images];
      const key = keyOf(markdown, entries);
      const known = failures.get(key);
      if (known && known.until > Date.now())
        return Promise.resolve({ ok: false, reason: known.reason, html: plainParagraphs(markdown) });
      if (known) failures.delete(key);
      if (queue.length >= maxWaiting)
        return Promise.resolve({ ok: false, reason: "busy", html: plainParagraphs(markdown) });
      return new Promise<BodyRender>((resolve) => {
        queue.push({ id: nextId++, markdown, images: entries, resolve });
        next();
      });
    },
    async close() {
      for (const job of queue.splice(0))
        job.resolve({ ok: false, reason: "busy", html: plainParagraphs(job.markdown) });
      if (current) finish({ ok: false, reason: "busy", html: plainParagraphs(current.markdown) });
      const stopping = worker;
      worker = undefined;
      ready = false;
      await stopping?.terminate();
    },
  };
}

let shared: MarkdownRenderer | undefined;

/** The process's renderer (the worker starts with the first body). */
export function renderPostBody(
  markdown: string,
  images?: ReadonlyMap<number, PostImage>,
): Promise<BodyRender> {
  shared ??= createMarkdownRenderer();
  return shared.render(markdown, images);
}
