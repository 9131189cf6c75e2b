import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { exifHasGps } from "./exif-gps.ts";
import { type PipelineResult, processImage } from "./image-pipeline.ts";
import {
  MEDIA_MAX_PIXELS,
  MEDIA_MAX_VARIANT_HEIGHT,
  MEDIA_VARIANT_WIDTHS,
  type MediaType,
} from "./media-rules.ts";

// Decoding an uploaded image is hostile work (issue 24): a decompression bomb, a header that lies, a
// file built to take the decoder down a slow path. It runs in a worker thread with a small heap of
// its own and a time budget, never on the event loop, and at most `maxRunning` at once with a few
// waiting; beyond that the upload is told to try again (the CSV import's and the audits' rule).
//
// NOTE: libvips does its work in native threads that worker.terminate() cannot interrupt (an AVIF
// encode runs to its end). The limits make that work small (40 MP in, at most 1920 × 3840 out, AVIF
// at effort 2), each libvips step carries the time left (sharp's timeout() stops a slow decode or
// resize), and past the deadline the upload is refused at once while its worker's slot stays taken
// until the thread has really ended: a flood of hostile files never runs more decoders than
// `maxRunning`, abandoned ones included (ADR 024).

export type ProcessorOptions = {
  /** Images processed at once. One: the machine has two cores and requests need the other. */
  maxRunning?: number;
  /** Uploads that may wait for a slot; beyond, ImageBusyError. */
  maxWaiting?: number;
  /** The time budget of one image, from when its worker starts. */
  budgetMs?: number;
  /** The worker's JavaScript heap (pixels live in native memory, bounded by the pixel limit). */
  heapMb?: number;
};

export type ProcessOutcome = PipelineResult | { ok: false; reason: "tooComplex" };

export class ImageBusyError extends Error {
  constructor() {
    super("Other images are being processed.");
  }
}

/** A slow path in a decoder gets this long; a 40 MP photo takes a few seconds on the 2-core machine. */
const DEFAULT_BUDGET_MS = 30_000;
/** After the budget the worker gets this long to report its own refusal before it is abandoned. */
const GRACE_MS = 2_000;

let sharpPath: string | undefined;

/**
 * Loads sharp in this (the main) thread once and returns where it lives, for the workers. On
 * glibc Linux sharp's shared libraries must be loaded by the main thread before a worker loads them,
 * so they stay mapped after a worker exits (sharp's documentation, "worker threads").
 */
function loadSharp(): string {
  if (sharpPath) return sharpPath;
  const require = createRequire(import.meta.url);
  const sharp = require("sharp") as typeof import("sharp").default;
  // The settings are per process: no operation cache (memory), one libvips thread per image.
  sharp.cache(false);
  sharp.concurrency(1);
  sharpPath = require.resolve("sharp");
  return sharpPath;
}

const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const sharp = require(workerData.sharpPath);
sharp.cache(false);
sharp.concurrency(1);
const exifHasGps = ${exifHasGps.toString()};
const processImage = ${processImage.toString()};
processImage({ sharp, exifHasGps }, new Uint8Array(workerData.bytes), workerData.type, workerData.limits).then(
  (result) => parentPort.postMessage(result),
  (error) => parentPort.postMessage({ ok: false, reason: "damaged", detail: String(error && error.message) }),
);
`;

export type ImageProcessor = {
  /** The image's variants, or why it is refused. Throws ImageBusyError when too many are waiting. */
  process(bytes: Uint8Array, type: MediaType): Promise<ProcessOutcome>;
  /** Images being processed or waiting now (for tests and metrics). */
  load(): { running: number; waiting: number };
};

export function createImageProcessor({
  maxRunning = 1,
  maxWaiting = 4,
  budgetMs = DEFAULT_BUDGET_MS,
  heapMb = 64,
}: ProcessorOptions = {}): ImageProcessor {
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  function runWorker(bytes: Uint8Array, type: MediaType): Promise<ProcessOutcome> {
    // A copy the worker owns: the request's buffer may be a slice of a shared pool.
    const owned = new Uint8Array(bytes).buffer;
    return new Promise<ProcessOutcome>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: {
            sharpPath: loadSharp(),
            bytes: owned,
            type,
            limits: {
              maxPixels: MEDIA_MAX_PIXELS,
              widths: MEDIA_VARIANT_WIDTHS,
              maxHeight: MEDIA_MAX_VARIANT_HEIGHT,
              deadlineAt: Date.now() + budgetMs,
            },
          },
          transferList: [owned],
          resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
        });
      } catch (error) {
        // No thread was started, so none will give the slot back.
        release();
        reject(error);
        return;
      }
      let settled = false;
      const timer = setTimeout(
        () => finish(() => resolve({ ok: false, reason: "tooSlow" })),
        budgetMs + GRACE_MS,
      );
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
        void worker.terminate();
      };
      // The slot is given back only when the thread has ended, however the upload was answered.
      worker.once("exit", () => {
        release();
        finish(() => reject(new Error("The image worker stopped unexpectedly.")));
      });
      worker.once("message", (message: ProcessOutcome) => finish(() => resolve(message)));
      worker.once("error", (error: Error & { code?: string }) =>
        finish(() =>
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? resolve({ ok: false, reason: "tooComplex" })
            : reject(error),
        ),
      );
    });
  }

  return {
    async process(bytes, type) {
      if (running >= maxRunning) {
        if (waiting.length >= maxWaiting) throw new ImageBusyError();
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running++;
      return runWorker(bytes, type);
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}
