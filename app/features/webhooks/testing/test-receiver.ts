import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { Webhook } from "standardwebhooks";

// Test-only: a webhook receiver on 127.0.0.1 that records each request and answers as the test
// says. It checks each delivery both ways a receiver may: X-Clausebridge-Signature with the README's
// recipe, written independently of the sender's code, and the Standard Webhooks headers with the
// standard's own library (`standardwebhooks` on npm), as a receiver built on it would.

export type ReceivedDelivery = {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The README's X-Clausebridge check, with this receiver's current secret. */
  verified: boolean;
  /** `new Webhook(secret).verify(body, headers)` of the `standardwebhooks` package did not throw. */
  standardVerified: boolean;
};

export type Answer = { status: number; body?: string; headers?: Record<string, string>; hang?: boolean };

export type TestReceiver = {
  url: string;
  received: ReceivedDelivery[];
  /** The secret the receiver verifies with, `whsec_…` (set it from the page or API's one-time answer). */
  secret: string;
  /** Answers to give, in order; once empty, 200 "ok". */
  answers: Answer[];
  close(): Promise<void>;
};

/**
 * README "Verifying X-Clausebridge-Signature": HMAC keyed with `key`, constant-time compare, 5
 * minutes. A string key is used as is (UTF-8), as receivers of secrets shown before issue 32 do.
 */
export function verifyClausebridgeSignature(
  key: string | Buffer,
  headers: http.IncomingHttpHeaders,
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const timestamp = String(headers["x-clausebridge-timestamp"] ?? "");
  const signature = String(headers["x-clausebridge-signature"] ?? "");
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const expected = `sha256=${createHmac("sha256", key).update(`${timestamp}.${rawBody}`).digest("hex")}`;
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The key a shown secret carries, as the README says: what follows `whsec_`, base64-decoded. */
export const keyOfShownSecret = (secret: string): Buffer =>
  Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : "", "base64");

/** The receiver's X-Clausebridge check with the secret as shown (`whsec_…`). */
export function verifyLikeAReceiver(
  secret: string,
  headers: http.IncomingHttpHeaders,
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const key = keyOfShownSecret(secret);
  return key.length > 0 && verifyClausebridgeSignature(key, headers, rawBody, nowSeconds);
}

/** The Standard Webhooks check, by the standard's library: true when `verify` does not throw. */
export function verifyWithStandardWebhooks(
  secret: string,
  headers: http.IncomingHttpHeaders,
  rawBody: string,
): boolean {
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === "string") single[name] = value;
  try {
    new Webhook(secret).verify(rawBody, single);
    return true;
  } catch {
    return false;
  }
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
        standardVerified: verifyWithStandardWebhooks(receiver.secret, request.headers, body),
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
