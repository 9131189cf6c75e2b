import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";

// Test-only: a webhook receiver on 127.0.0.1 that records each request and answers as the test
// says. Its signature check is written from the README's recipe, independently of the sender's code.

export type ReceivedDelivery = {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The README's check, with this receiver's current secret. */
  verified: boolean;
};

export type Answer = { status: number; body?: string; headers?: Record<string, string>; hang?: boolean };

export type TestReceiver = {
  url: string;
  received: ReceivedDelivery[];
  /** The secret the receiver verifies with (set it from the page or API's one-time answer). */
  secret: string;
  /** Answers to give, in order; once empty, 200 "ok". */
  answers: Answer[];
  close(): Promise<void>;
};

/** The receiver's side of README "Verifying a delivery": HMAC, constant-time compare, 5 minutes. */
export function verifyLikeAReceiver(
  secret: string,
  headers: http.IncomingHttpHeaders,
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const timestamp = String(headers["x-clausebridge-timestamp"] ?? "");
  const signature = String(headers["x-clausebridge-signature"] ?? "");
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex")}`;
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startTestReceiver(
  options: { tls?: { key: string; cert: string } } = {},
): Promise<TestReceiver> {
  const receiver: TestReceiver = { url: "", received: [], secret: "", answers: [], close: async () => {} };
  const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      receiver.received.push({
        path: request.url ?? "",
        headers: request.headers,
        body,
        verified: verifyLikeAReceiver(receiver.secret, request.headers, body),
      });
      const answer = receiver.answers.shift() ?? { status: 200, body: "ok" };
      if (answer.hang) return;
      response.writeHead(answer.status, { "Content-Type": "text/plain", ...answer.headers });
      response.end(answer.body ?? "");
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `${options.tls ? "https" : "http"}://127.0.0.1:${port}/hooks/clausebridge`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return receiver;
}
