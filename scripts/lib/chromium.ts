// Debian's Chromium and the flags every tool here launches it with (tests, Lighthouse, brand assets).

/** Override with CHROMIUM_PATH (or CHROME_PATH, which Lighthouse reads) to use another build. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? "/usr/bin/chromium";

/**
 * NOTE: without the background-networking flags Chromium keeps trying to reach Google's services,
 * and on our closed network those connections are refused, many at a time.
 */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

/** Flags for a headless launch through playwright-core. */
export const CHROMIUM_HEADLESS_ARGS = ["--headless", ...CHROMIUM_FLAGS];
