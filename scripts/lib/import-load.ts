import { readFileSync } from "node:fs";

// Issue 32 (points 6 and 7): the load that stalled the site and grew its memory, shared by
// `npm run bench:imports` and tests/e2e/import-load.test.ts. Three 10,000-row CSV commits at once
// while GET / is asked again and again; 20 image uploads at once; 6 imports at once. The server's
// peak resident memory is read from /proc (VmHWM), its longest event-loop stall from /metrics.

/** A 10,000-row CSV of new people (emails unique per `tag`), `messageChars` of notes a row. */
export function leadsCsv(tag: string, rows = 10_000, messageChars = 40): string {
  const note = "Met at the trade fair, wants a demo for the site team. ".repeat(20).slice(0, messageChars);
  const lines = ["Name,E-mail,Organisation,Telephone,Notes"];
  for (let i = 0; i < rows; i++)
    lines.push(
      `Person ${tag} ${i},p${i}.${tag}@import-load.example,Firm ${i % 500},+44 20 7946 ${String(i % 10_000).padStart(4, "0")},${note}`,
    );
  return `${lines.join("\r\n")}\r\n`;
}

/** POST /api/admin/leads/import with `commit=true`; answers the status and the JSON body. */
export async function commitCsv(
  baseUrl: string,
  cookie: string,
  csv: string,
  name = "attendees.csv",
): Promise<{ status: number; body: { importId?: number; imported?: number; message?: string } }> {
  const form = new FormData();
  form.set("file", new Blob([csv], { type: "text/csv" }), name);
  form.set("source", "event");
  form.set("commit", "true");
  const response = await fetch(`${baseUrl}/api/admin/leads/import`, {
    method: "POST",
    headers: { Origin: new URL(baseUrl).origin, Cookie: cookie },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as never };
}

/** POST /api/admin/media with one image; answers the status. */
export async function uploadImage(baseUrl: string, cookie: string, bytes: Uint8Array): Promise<number> {
  const form = new FormData();
  form.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "image/png" }), "photo.png");
  form.set("alt", "A photo");
  const response = await fetch(`${baseUrl}/api/admin/media`, {
    method: "POST",
    headers: { Origin: new URL(baseUrl).origin, Cookie: cookie },
    body: form,
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Repeats `job` until it is not refused as busy (503), a quarter of a second apart: what a client
 * told Retry-After does, so every one of a burst is eventually done. Gives up after `withinMs`.
 * Answers the last status.
 */
export async function untilAccepted(
  job: () => Promise<number>,
  { withinMs = 600_000 } = {},
): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const status = await job();
    if (status !== 503 || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** POST /admin/leads/import `intent=undo` as the page's button does; answers the status (302 when done). */
export async function undoImport(baseUrl: string, cookie: string, importId: number): Promise<number> {
  const response = await fetch(`${baseUrl}/admin/leads/import`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: new URL(baseUrl).origin,
      Cookie: cookie,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ intent: "undo", importId: String(importId) }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** GET / every `everyMs` until stopped; the latencies in ms and any answer that was not 200. */
export function sampleHomePage(baseUrl: string, everyMs = 25) {
  const latencies: number[] = [];
  const failures: string[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}/`);
        await response.arrayBuffer();
        if (response.status !== 200) failures.push(`GET / ${response.status}`);
      } catch (error) {
        failures.push(`GET / ${(error as Error).message}`);
      }
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return { latencies, failures };
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The process's peak resident memory so far (VmHWM), in bytes. */
export function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * The server's longest event-loop stall since the previous call, in ms: prom-client's
 * `nodejs_eventloop_lag_max_seconds` (monitorEventLoopDelay, reset at each scrape of /metrics,
 * which answers direct requests from this machine when METRICS_TOKEN is unset).
 */
export async function eventLoopMaxLagMs(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const match = /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})?\s+([0-9.e+-]+)/m.exec(text);
  if (!match?.[1]) throw new Error("/metrics has no nodejs_eventloop_lag_max_seconds");
  return Number(match[1]) * 1000;
}
