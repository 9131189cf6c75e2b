import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { PAGE_SCRIPT_ENTRIES } from "./app/lib/page-scripts.ts";
import { pageScripts } from "./scripts/lib/page-scripts-plugin.ts";

export default defineConfig({
  // pageScripts: the public pages' enhancement script and form islands, a build of their own next to
  // React Router's (ADR 013).
  plugins: [tailwindcss(), reactRouter(), pageScripts(PAGE_SCRIPT_ENTRIES)],
  // PUBLIC_URL is baked into canonical URLs, Open Graph tags and the sitemap at build time.
  envPrefix: ["VITE_", "PUBLIC_URL"],
  build: {
    // Every asset keeps its own hashed file, served immutable for a year by server.ts.
    assetsInlineLimit: 0,
    sourcemap: process.env.BUILD_SOURCEMAP === "1",
    rolldownOptions: {
      output: {
        // The back office's framework in one chunk: it compresses better than many small ones.
        codeSplitting: {
          groups: [
            { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
          ],
        },
      },
    },
  },
});
