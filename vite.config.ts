import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // PUBLIC_URL is baked into canonical URLs, Open Graph tags and the sitemap at build time.
  envPrefix: ["VITE_", "PUBLIC_URL"],
  build: {
    // Every asset keeps its own hashed file, served immutable for a year by server.ts.
    assetsInlineLimit: 0,
    sourcemap: process.env.BUILD_SOURCEMAP === "1",
    rolldownOptions: {
      output: {
        // One framework chunk compresses better than many small ones and is cached across pages.
        codeSplitting: {
          groups: [
            { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // The site chrome and helpers every public page uses: one file instead of a dozen small
            // ones, so a phone on a slow link makes fewer requests before the page is interactive.
            {
              name: "site",
              test: /app[\\/](components[\\/](site|ui[\\/](button|toaster|toast-store))|lib|features[\\/]content[\\/](site|navigation|meta|public-url|stats))[\\/.]/,
            },
          ],
        },
      },
    },
  },
});
