import type { Config } from "@react-router/dev/config";
import { listPublicPaths } from "./app/features/content/public-paths.ts";

// Public pages are prerendered to static HTML at build time; everything else (admin, API, 404s)
// is server-rendered. NOTE: list public paths only — a prerendered admin route would run its loader
// at build time and freeze database rows into static HTML. See docs/decisions/003-routing-and-prerender.md.
export default {
  ssr: true,
  prerender: () => listPublicPaths(),
  // The whole route manifest ships with the first page (it is small), so client navigations never
  // ask the server for route discovery and prerendered pages stay fully static.
  routeDiscovery: { mode: "initial" },
} satisfies Config;
