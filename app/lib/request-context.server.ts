import { createContext } from "react-router";

/**
 * The per-request CSP nonce that server.ts puts in the Content-Security-Policy header. Empty while
 * prerendering: static pages are covered by script hashes computed at build time instead.
 */
export const cspNonceContext = createContext<string>("");
