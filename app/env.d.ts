/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The site's public origin, fixed at build time (see vite.config.ts). */
  readonly PUBLIC_URL?: string;
}

/** Where the client build put the public pages' scripts (scripts/lib/page-scripts-plugin.ts). */
declare module "virtual:page-scripts" {
  const assets: import("./lib/page-scripts.ts").PageScriptAssets;
  export default assets;
}
