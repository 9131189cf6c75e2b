import http from "node:http";
import net from "node:net";
import { startTrafficGuard } from "#app/features/audits/lab/traffic-guard.server.ts";

// What the lab check's traffic guard adds to each request (issue 25): sequential GETs to a local
// page server, direct and through the guard (one keep-alive connection to the proxy, as Chromium
// keeps one), and sequential request/response exchanges inside one CONNECT tunnel written in two
// pieces each (as TLS handshakes and HTTP/2 frames are), which exposes Nagle/delayed-ACK stalls.
// Prints the median and p95 time to the response's first byte and how many TCP connections the
// page server accepted. Usage: npm run bench:guard [-- <requests, default 200>]

const requests = Number(process.argv[2] ?? 200);
const body = "<!doctype html><title>bench</title>".padEnd(4_000, " ");
let accepted = 0;
const page = http.createServer((_request, response) => {
  response.writeHead(200, { "Content-Type": "text/html", "Content-Length": String(body.length) });
  response.end(body);
});
page.on("connection", () => {
  accepted += 1;
});
await new Promise<void>((resolve) => page.listen(0, "127.0.0.2", resolve));
const pagePort = (page.address() as net.AddressInfo).port;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function timeGets(viaProxy: number | null): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const options = viaProxy
        ? { host: "127.0.0.1", port: viaProxy, path: `http://127.0.0.2:${pagePort}/p${i}`, agent }
        : { host: "127.0.0.2", port: pagePort, path: `/p${i}`, agent };
      http
        .get(options, (response) => {
          times.push(performance.now() - started);
          response.resume();
          response.on("end", resolve);
        })
        .on("error", reject);
    });
  }
  agent.destroy();
  return times;
}

/** Exchanges inside one tunnel; each request is written in two pieces a moment apart. */
async function timeTunnel(proxyPort: number): Promise<number[]> {
  const socket = net.connect(proxyPort, "127.0.0.1");
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(`CONNECT 127.0.0.2:${pagePort} HTTP/1.1\r\nHost: 127.0.0.2:${pagePort}\r\n\r\n`);
  await new Promise<void>((resolve) =>
    socket.once("data", (chunk) => {
      if (!chunk.toString().startsWith("HTTP/1.1 200")) throw new Error(`tunnel refused: ${chunk}`);
      resolve();
    }),
  );
  const times: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const started = performance.now();
    const answered = new Promise<void>((resolve) => {
      let seen = 0;
      const onData = (chunk: Buffer) => {
        if (seen === 0) times.push(performance.now() - started);
        seen += chunk.length;
        if (seen >= body.length) {
          socket.off("data", onData);
          resolve();
        }
      };
      socket.on("data", onData);
    });
    socket.write(`GET /t${i} HTTP/1.1\r\n`);
    await new Promise((resolve) => setImmediate(resolve));
    socket.write(`Host: 127.0.0.2:${pagePort}\r\n\r\n`);
    await answered;
  }
  socket.destroy();
  return times;
}

const report = (label: string, times: number[], connections: number, base?: number[]) => {
  const extra = base
    ? ` — added: p50 ${ms(quantile(times, 0.5) - quantile(base, 0.5))}, p95 ${ms(quantile(times, 0.95) - quantile(base, 0.95))}`
    : "";
  console.log(
    `${label.padEnd(26)} p50 ${ms(quantile(times, 0.5))}  p95 ${ms(quantile(times, 0.95))}  upstream connections ${connections}${extra}`,
  );
};

const guard = await startTrafficGuard({ allowPrivate: (address) => address === "127.0.0.2" });
try {
  await timeGets(null); // warm-up
  accepted = 0;
  const direct = await timeGets(null);
  report(`direct GET ×${requests}`, direct, accepted);
  accepted = 0;
  const proxied = await timeGets(guard.port);
  report(`through the guard GET ×${requests}`, proxied, accepted, direct);
  accepted = 0;
  const tunnel = await timeTunnel(guard.port);
  report(`tunnel exchanges ×${requests}`, tunnel, accepted, direct);
  console.log(
    `guard stats: ${JSON.stringify(guard.stats)}; load average ${(await import("node:os"))
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await guard.close();
  page.closeAllConnections();
  page.close();
}
