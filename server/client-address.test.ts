import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.ts";

function request(peer: string, forwardedFor?: string): IncomingMessage {
  return {
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  } as unknown as IncomingMessage;
}

describe("clientAddress", () => {
  it("is the socket's peer without TRUST_PROXY, whatever X-Forwarded-For says", () => {
    expect(clientAddress(request("10.0.0.1", "203.0.113.9"), 0)).toBe("10.0.0.1");
  });

  it("reads X-Forwarded-For from the right, one hop per trusted proxy", () => {
    expect(clientAddress(request("10.0.0.1", "203.0.113.9"), 1)).toBe("203.0.113.9");
    // A client-supplied first entry is ignored behind one proxy.
    expect(clientAddress(request("10.0.0.1", "1.2.3.4, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientAddress(request("10.0.0.1", "203.0.113.9, 10.0.0.2"), 2)).toBe("203.0.113.9");
    // Fewer hops than trusted proxies: the furthest one there is.
    expect(clientAddress(request("10.0.0.1", "203.0.113.9"), 3)).toBe("203.0.113.9");
  });

  it("falls back to the peer when the header is missing, and caps what it returns", () => {
    expect(clientAddress(request("10.0.0.1"), 1)).toBe("10.0.0.1");
    expect(clientAddress(request("10.0.0.1", "x".repeat(500)), 1)).toHaveLength(100);
  });
});
