import type { IncomingMessage } from "node:http";

/** Longer values are cut (an address is at most 45 characters; anything else is not one). */
const MAX_ADDRESS_LENGTH = 100;

/**
 * The client's address as Express resolves `req.ip` with `trust proxy` set to a number: with
 * TRUST_PROXY=n, the n-th address from the right of X-Forwarded-For (the socket's peer counts as the
 * first hop), else the socket's peer. Never stored or logged: the analytics hash it.
 */
export function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const peer = req.socket.remoteAddress ?? "unknown";
  if (trustProxy <= 0) return peer;
  const header = req.headers["x-forwarded-for"];
  if (header === undefined) return peer;
  const forwarded = (Array.isArray(header) ? header.join(",") : header).split(",");
  // Hops from the nearest: the peer, then X-Forwarded-For read from the right.
  const hop = Math.min(trustProxy, forwarded.length);
  const address = forwarded[forwarded.length - hop]?.trim() ?? peer;
  return address.slice(0, MAX_ADDRESS_LENGTH);
}
