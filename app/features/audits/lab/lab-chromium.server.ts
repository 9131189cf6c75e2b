import { accessSync, constants } from "node:fs";
import { access } from "node:fs/promises";

// Where the lab check finds Chromium and how it starts it. The server only checks the path (so the
// page can say how to install the browser); the lab child process launches it.

export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_MISSING_TITLE = "Chromium is not installed";

export function chromiumMissingText(path: string): string {
  return (
    `The lab check loads the page in headless Chromium, and there is none at ${path}. ` +
    "Install it with `apt-get install chromium` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary, then try again."
  );
}

/**
 * The checked CHROMIUM_PATH (env.server.ts), else Debian's. Tests that only ask whether a browser
 * is here call it with the raw environment.
 */
export function chromiumPath(env: { CHROMIUM_PATH?: string } = process.env): string {
  return env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}

/** On a request's path: the same check without a synchronous file-system call. */
export async function canExecute(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** At start-up and in tests' skip conditions (synchronous: no request waits on it). */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Renderer V8 heap cap (MB): a hostile page's script runs out of memory instead of the machine. */
export const RENDERER_HEAP_MB = 512;

/**
 * The flags of one lab run, besides Lighthouse's launcher defaults (which `npm run lighthouse` uses
 * too, so both measure the same browser set-up): every request through the traffic guard, loopback
 * included; no QUIC (UDP would bypass an HTTP proxy); WebRTC only through the proxy (no UDP, no local
 * addresses); no DNS prefetch; no background or component traffic.
 */
export function labChromiumFlags(proxyUrl: string, profileDir: string): string[] {
  return [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    `--user-data-dir=${profileDir}`,
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
    `--proxy-server=${proxyUrl}`,
    // Chromium bypasses a proxy for localhost and 127.0.0.1 unless told otherwise.
    "--proxy-bypass-list=<-loopback>",
    "--disable-quic",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--dns-prefetch-disable",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-domain-reliability",
    "--disable-breakpad",
    `--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`,
  ];
}
