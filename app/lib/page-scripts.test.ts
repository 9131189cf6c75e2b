import { describe, expect, test } from "vitest";
import { pageScriptsLoader } from "./page-scripts.ts";

// The loader runs in the visitor's browser; here it runs against stand-ins for the browser APIs it
// uses, with `import()` replaced by a recorder, so what it loads and when can be checked.
type Globals = { PerformanceObserver?: unknown; requestAnimationFrame: (cb: () => void) => void };

function run(globals: Globals) {
  const loaded: string[] = [];
  const timers: (() => void)[] = [];
  const source = pageScriptsLoader(["/assets/enhance-1.js", "/assets/form-2.js"]).replaceAll(
    "import(",
    "load(",
  );
  new Function("load", "setTimeout", "PerformanceObserver", "requestAnimationFrame", source)(
    (url: string) => loaded.push(url),
    (callback: () => void) => timers.push(callback),
    globals.PerformanceObserver,
    globals.requestAnimationFrame,
  );
  return {
    loaded,
    /** The 3 s safety timer, set first. */
    safetyTimer: timers[0],
    /** Runs the timers set after it (the frame fallback's). */
    runLaterTimers: () => timers.splice(1).forEach((timer) => void timer()),
  };
}

describe("pageScriptsLoader", () => {
  test("loads every script once, on the first contentful paint", () => {
    let report: ((list: { getEntriesByName(name: string): unknown[] }) => void) | undefined;
    class FakeObserver {
      static supportedEntryTypes = ["paint", "largest-contentful-paint"];
      constructor(callback: typeof report) {
        report = callback;
      }
      observe() {}
    }
    const page = run({ PerformanceObserver: FakeObserver, requestAnimationFrame: () => {} });
    expect(page.loaded).toEqual([]);
    report?.({ getEntriesByName: (name) => (name === "first-contentful-paint" ? [] : [{}]) });
    expect(page.loaded).toEqual([]);
    report?.({ getEntriesByName: (name) => (name === "first-contentful-paint" ? [{}] : []) });
    expect(page.loaded).toEqual(["/assets/enhance-1.js", "/assets/form-2.js"]);
    // The 3 s safety timer finds them started and loads nothing twice.
    page.safetyTimer?.();
    expect(page.loaded).toHaveLength(2);
  });

  test("loads them after 3 s whatever happens", () => {
    const page = run({ PerformanceObserver: undefined, requestAnimationFrame: () => {} });
    page.safetyTimer?.();
    expect(page.loaded).toEqual(["/assets/enhance-1.js", "/assets/form-2.js"]);
  });

  test("falls back to the next frame where the browser has no Paint Timing, without throwing", () => {
    const frames: (() => void)[] = [];
    for (const PerformanceObserver of [undefined, class {}]) {
      frames.length = 0;
      const page = run({ PerformanceObserver, requestAnimationFrame: (cb) => frames.push(cb) });
      expect(page.loaded).toEqual([]);
      for (const frame of frames) frame();
      page.runLaterTimers();
      expect(page.loaded).toEqual(["/assets/enhance-1.js", "/assets/form-2.js"]);
      page.safetyTimer?.();
      expect(page.loaded).toHaveLength(2);
    }
  });
});
