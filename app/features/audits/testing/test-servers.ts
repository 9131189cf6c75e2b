import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";

// Test-only: throwaway HTTP, HTTPS and HTTP/2 servers on 127.0.0.1 for the fetcher's tests. Each
// counts its TCP connections (the performance check must open a fresh one per run) and closes every
// socket on close(), so a server that never answers cannot hold the test run open.

export type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export type TestServer = {
  origin: string;
  port: number;
  connections: () => number;
  close: () => Promise<void>;
};

type Kind = "http" | "https" | "http2";

export async function startTestServer(
  kind: Kind,
  handler: Handler,
  certificate?: { key: string; cert: string },
): Promise<TestServer> {
  const server =
    kind === "http"
      ? http.createServer(handler)
      : kind === "https"
        ? https.createServer({ ...certificate }, handler)
        : // allowHTTP1 keeps the compatibility API's (request, response) for both protocols.
          http2.createSecureServer({ ...certificate, allowHTTP1: true }, handler as never);
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on("connection", (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${kind === "http" ? "http" : "https"}://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Only the test servers' loopback address counts as allowed; every other private one is refused. */
export const allowLoopbackOnly = (address: string) => address === "127.0.0.1";

/** Headers with which the security audit grades a page C+; without them it gets an F. */
export const GRADED_SITE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
} as const;

export type GradedSite = TestServer & {
  /** With `false` the site drops its security headers (its grade falls to F); `true` restores them. */
  setGood(good: boolean): void;
};

/** A plain HTTP page whose security grade a test can drop and restore: the watches' fixture. */
export async function startGradedSite(): Promise<GradedSite> {
  let good = true;
  const server = await startTestServer("http", (request, response) => {
    response.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      ...(good ? GRADED_SITE_HEADERS : {}),
    });
    response.end(`<!doctype html><title>Watched ${request.url}</title><p>A watched page.</p>`);
  });
  return Object.assign(server, {
    setGood(value: boolean) {
      good = value;
    },
  });
}
