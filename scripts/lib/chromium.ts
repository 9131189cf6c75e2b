// Debian's Chromium and the flags every tool here launches it with (tests, Lighthouse, brand assets).
import { existsSync } from "node:fs";

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

/**
 * The e2e tests' browser (ADR 038): TEST_CHROMIUM_PATH, else CHROMIUM_PATH when set, else Debian's
 * chromium-headless-shell when installed (Chromium's old headless mode, the same version as the
 * chromium package without the full browser's window and UI: pages opened 40 % faster on this
 * machine), else Chromium itself.
 */
export const TEST_CHROMIUM_PATH =
  process.env.TEST_CHROMIUM_PATH ??
  process.env.CHROMIUM_PATH ??
  (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

/** Flags for a headless launch through playwright-core. */
export const CHROMIUM_HEADLESS_ARGS = ["--headless", ...CHROMIUM_FLAGS];
