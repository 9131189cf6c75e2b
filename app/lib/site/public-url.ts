import { site } from "./site.ts";

// Fixed at build time (vite.config.ts `envPrefix`): prerendered pages carry absolute URLs.
const configured: string | undefined = import.meta.env.PUBLIC_URL;

/** The site's public origin without a trailing slash, e.g. `https://www.clausebridge.co.uk`. */
export const publicUrl = (configured || site.defaultPublicUrl).replace(/\/+$/, "");

/** An absolute URL on the public site for a path such as `/blog`. */
export function absoluteUrl(path: string): string {
  if (path === "/" || path === "") return `${publicUrl}/`;
  return `${publicUrl}${path.startsWith("/") ? path : `/${path}`}`;
}
