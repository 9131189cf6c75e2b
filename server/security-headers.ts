// Security headers sent with every response. Static pages carry script hashes computed at build
// time (scripts/postbuild.ts); server-rendered pages carry a per-request nonce.

export type CspScripts = { hashes?: readonly string[]; nonce?: string };

/**
 * The Content-Security-Policy. Scripts: our own files plus the inline hydration scripts named by
 * hash or nonce; never 'unsafe-inline' or 'unsafe-eval'. Styles allow inline attributes because
 * Radix positions popovers with style attributes; CSS cannot run script.
 */
export function contentSecurityPolicy(scripts: CspScripts, https: boolean): string {
  const scriptSources = ["'self'"];
  for (const hash of scripts.hashes ?? []) scriptSources.push(`'${hash}'`);
  if (scripts.nonce) scriptSources.push(`'nonce-${scripts.nonce}'`);
  const directives = [
    "default-src 'self'",
    `script-src ${scriptSources.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

// NOTE: only features Chromium recognises; an unknown one logs a console error on every page.
const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

/** Two years, as the HSTS preload list asks. */
const HSTS_VALUE = "max-age=63072000; includeSubDomains";

/** Headers every response carries, whatever its type. */
export function baseSecurityHeaders(sendHsts: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Frame-Options": "DENY",
  };
  if (sendHsts) headers["Strict-Transport-Security"] = HSTS_VALUE;
  return headers;
}
