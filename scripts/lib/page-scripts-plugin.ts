// Builds the public pages' own browser scripts (app/lib/page-scripts.ts: the enhancement script and
// the form islands) and tells the server build where they landed, through the virtual module
// `virtual:page-scripts` (ADR 013).
//
// They are a build of their own, run once React Router's client build is written, into the same
// build/client/assets: chunked among themselves only, the enhancement script is one small file and
// the islands share one React chunk, instead of being cut along the back office's module graph.
// React Router builds the client first, then the server, with the same plugin instance, so the
// names are known when the server build asks for them.
import { resolve } from "node:path";
import { build, type Plugin, type Rolldown } from "vite";
import type { PageScriptAssets, PageScriptName } from "../../app/lib/page-scripts.ts";

export const PAGE_SCRIPTS_MODULE = "virtual:page-scripts";
const RESOLVED_ID = `\0${PAGE_SCRIPTS_MODULE}`;
/** Dev server only: an island's entry behind React Router's fast-refresh preamble. */
const DEV_ENTRY_PREFIX = "virtual:page-script-dev/";
/** NOTE: React Router's own id (its <Scripts /> imports it first in dev); components throw without it. */
const REACT_REFRESH_PREAMBLE = "virtual:react-router/inject-hmr-runtime";

/** The entry chunks of a build output, by the name of the entry they were built from. */
export function entryFiles(
  chunks: readonly Pick<Rolldown.OutputChunk, "isEntry" | "facadeModuleId" | "fileName">[],
  entriesByModule: ReadonlyMap<string, string>,
): Record<string, string> {
  const files: Record<string, string> = {};
  for (const chunk of chunks) {
    const name =
      chunk.isEntry && chunk.facadeModuleId ? entriesByModule.get(chunk.facadeModuleId) : undefined;
    if (name) files[name] = `/${chunk.fileName}`;
  }
  return files;
}

export function pageScripts(entries: Record<PageScriptName, string>): Plugin {
  let built: Partial<PageScriptAssets> | undefined;

  return {
    name: "page-scripts",
    async writeBundle() {
      const { name, config } = this.environment;
      if (name !== "client" || config.command !== "build") return;
      const input = Object.fromEntries(
        Object.entries(entries).map(([entry, file]) => [entry, resolve(config.root, file)]),
      );
      const result = await build({
        configFile: false,
        root: config.root,
        mode: config.mode,
        logLevel: config.logLevel,
        publicDir: false,
        build: {
          outDir: config.build.outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          sourcemap: config.build.sourcemap,
          // No preload helper (0.8 KB): a lazily loaded chunk fetches its own imports.
          modulePreload: false,
          rolldownOptions: {
            input,
            // Radix marks its modules "use client" for server components; it means nothing here.
            onwarn(warning, warn) {
              if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes("use client")) return;
              warn(warning);
            },
            output: {
              entryFileNames: "assets/[name]-[hash].js",
              chunkFileNames: "assets/[name]-[hash].js",
              // React in a file of its own name: the islands share it, and a page loads it with the
              // first toast.
              codeSplitting: {
                groups: [{ name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
              },
            },
          },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
      const chunks = outputs.flatMap((output) =>
        output.output.filter((item): item is Rolldown.OutputChunk => item.type === "chunk"),
      );
      const byModule = new Map(Object.entries(input).map(([entry, file]) => [file, entry]));
      built = Object.fromEntries(
        Object.entries(entryFiles(chunks, byModule)).map(([entry, src]) => [entry, { src }]),
      );
    },
    resolveId(id) {
      if (id === PAGE_SCRIPTS_MODULE || id.startsWith(DEV_ENTRY_PREFIX)) return `\0${id}`;
      return undefined;
    },
    load(id) {
      if (id.startsWith(`\0${DEV_ENTRY_PREFIX}`)) {
        const file = entries[id.slice(DEV_ENTRY_PREFIX.length + 1) as PageScriptName];
        return `import "${REACT_REFRESH_PREAMBLE}";\nimport "/${file}";\n`;
      }
      if (id !== RESOLVED_ID) return undefined;
      if (this.environment.config.command === "serve") {
        // The dev server compiles each entry on request from its source; React components (the
        // islands, .tsx) need React Router's fast-refresh preamble loaded first.
        const dev = Object.fromEntries(
          Object.entries(entries).map(([entry, file]) => [
            entry,
            { src: file.endsWith(".tsx") ? `/@id/__x00__${DEV_ENTRY_PREFIX}${entry}` : `/${file}` },
          ]),
        );
        return `export default ${JSON.stringify(dev)};`;
      }
      const missing = Object.keys(entries).filter((entry) => !built?.[entry as PageScriptName]);
      if (missing.length > 0)
        throw new Error(`page-scripts: the client build has not produced ${missing.join(", ")}`);
      return `export default ${JSON.stringify(built)};`;
    },
  };
}
