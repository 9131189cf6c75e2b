import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createWorkSlots, type Slot } from "#app/lib/work-slots.ts";
import { exifHasGps } from "./exif-gps.ts";
import { type PipelineResult, processImage } from "./image-pipeline.ts";
import {
  MEDIA_MAX_PIXELS,
  MEDIA_MAX_VARIANT_HEIGHT,
  MEDIA_VARIANT_WIDTHS,
  type MediaType,
} from "./media-rules.ts";

// Decoding an uploaded image is hostile work (issue 24): a decompression bomb, a header that lies, a
// file built to take the decoder down a slow path. It runs in a child process of its own with a
// small JavaScript heap and a time budget, never on the event loop, and at most `maxRunning` at once
// with a few waiting; beyond that the upload is told to try again (the CSV import's and the audits'
// rule). The upload takes its place in that line before its body is read (`reserve()`).
//
// A child process, not a worker thread (issue 32): in a worker, one 10 MB upload took the server from
// 225 to 517 MB of RSS (libvips' and the AV1 encoder's native memory, kept by the allocator after the
// thread ended), and a burst of uploads to 1.15 GB. In a child that memory is the child's and goes
// back to the system when it exits, and past the budget the child is killed (SIGKILL), which also
// stops a libvips call a worker's terminate() could not interrupt. The cost is a process start
// (~0.1 s) per upload. The slot stays taken until the process has really ended, so a flood of
// hostile files never runs more decoders than `maxRunning` (ADR 024).

export type ProcessorOptions = {
  /** Images processed at once. One: the machine has two cores and requests need the other. */
  maxRunning?: number;
  /** Uploads that may wait for a slot; beyond, ImageBusyError. */
  maxWaiting?: number;
  /** The time budget of one image, from when its process starts. */
  budgetMs?: number;
  /** The child's JavaScript heap (pixels live in native memory, bounded by the pixel limit). */
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
/** After the budget the child gets this long to report its own refusal before it is killed. */
const GRACE_MS = 2_000;

let sharpPath: string | undefined;

/** Where sharp lives, for the child (which loads it; this process never does). */
function locateSharp(): string {
  sharpPath ??= createRequire(import.meta.url).resolve("sharp");
  return sharpPath;
}

// The child's program: one message in (the bytes, their type, the limits), one out (the result),
// then it exits and its memory goes back to the system.
const CHILD_SOURCE = `
process.once("message", ({ sharpPath, bytes, type, limits }) => {
  const sharp = require(sharpPath);
  sharp.cache(false);
  sharp.concurrency(1);
  const exifHasGps = ${exifHasGps.toString()};
  const processImage = ${processImage.toString()};
  processImage({ sharp, exifHasGps }, new Uint8Array(bytes), type, limits)
    .catch((error) => ({ ok: false, reason: "damaged", detail: String(error && error.message) }))
    .then((result) => process.send(result, () => process.disconnect()));
});
`;

/** Only what the child needs: never the database URL, secrets or the admin password. */
function childEnvironment(): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ["PATH", "LANG", "TZ"]) {
    const value = process.env[name];
    if (value) kept[name] = value;
  }
  return kept;
}

export type ImageProcessor = {
  /**
   * A place in the line, taken before the upload's body is read (issue 32: 20 uploads at once read
   * 20 bodies, 1.15 GB, before 15 of them were told to wait); null when too many are waiting.
   */
  reserve(): Slot | null;
  /**
   * The image's variants, or why it is refused, processed in `slot`'s turn (released when its
   * process has ended); without one, a place is taken now. Throws ImageBusyError when too many wait.
   */
  process(bytes: Uint8Array, type: MediaType, slot?: Slot): Promise<ProcessOutcome>;
  /** Images being processed or waiting now (for tests and metrics). */
  load(): { running: number; waiting: number };
};

export function createImageProcessor({
  maxRunning = 1,
  maxWaiting = 4,
  budgetMs = DEFAULT_BUDGET_MS,
  heapMb = 64,
}: ProcessorOptions = {}): ImageProcessor {
  const slots = createWorkSlots({ running: maxRunning, waiting: maxWaiting });

  function runChild(bytes: Uint8Array, type: MediaType, release: () => void): Promise<ProcessOutcome> {
    return new Promise<ProcessOutcome>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, "-e", CHILD_SOURCE], {
          env: childEnvironment(),
          // Structured clone: the bytes and the variants cross as they are.
          serialization: "advanced",
          stdio: ["ignore", "ignore", "ignore", "ipc"],
        });
      } catch (error) {
        // No process was started, so none will give the slot back.
        release();
        reject(error);
        return;
      }
      let settled = false;
      // Past the budget the upload is refused at once and the child killed: unlike a worker thread,
      // a process stops even inside a libvips call.
      const timer = setTimeout(() => {
        finish(() => resolve({ ok: false, reason: "tooSlow" }));
        child.kill("SIGKILL");
      }, budgetMs + GRACE_MS);
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      // The slot is given back only when the process has ended, however the upload was answered
      // ("close": after its last message has been read).
      child.once("close", (code, signal) => {
        release();
        // V8 out of its heap aborts the process (SIGABRT, or exit code 134 through a shell).
        if (signal === "SIGABRT" || code === 134) finish(() => resolve({ ok: false, reason: "tooComplex" }));
        finish(() =>
          reject(new Error(`The image process stopped unexpectedly (${signal ?? `exit code ${code}`}).`)),
        );
      });
      child.once("message", (message: ProcessOutcome) => finish(() => resolve(message)));
      child.once("error", (error: Error) => finish(() => reject(error)));
      child.send({
        sharpPath: locateSharp(),
        bytes,
        type,
        limits: {
          maxPixels: MEDIA_MAX_PIXELS,
          widths: MEDIA_VARIANT_WIDTHS,
          maxHeight: MEDIA_MAX_VARIANT_HEIGHT,
          deadlineAt: Date.now() + budgetMs,
        },
      });
    });
  }

  return {
    reserve: () => slots.reserve(),
    async process(bytes, type, reserved) {
      const slot = reserved ?? slots.reserve();
      if (!slot) throw new ImageBusyError();
      // The slot is the child's from now on: given back when its process has ended.
      const release = slot.adopt();
      await slot.ready;
      return runChild(bytes, type, release);
    },
    load: () => slots.load(),
  };
}
