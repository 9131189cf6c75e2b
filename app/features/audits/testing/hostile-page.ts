import http from "node:http";
import type { AddressInfo } from "node:net";

// Test and benchmark only (issue 9 point 11): a page made to hurt an HTML analyser, 2 MB of tiny
// tags (about 700,000 elements), served on 127.0.0.1 for every path and method.

export const HOSTILE_PAGE_BYTES = 2 * 1024 * 1024;

export function hostilePage(bytes = HOSTILE_PAGE_BYTES): string {
  const head = "<!doctype html><html><head><title>x</title></head><body>";
  return head + "<a>".repeat(Math.floor((bytes - head.length) / 3));
}

export type HostileServer = { url: string; close(): Promise<void> };

export async function startHostileServer(bytes = HOSTILE_PAGE_BYTES): Promise<HostileServer> {
  const body = Buffer.from(hostilePage(bytes));
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
