/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The site's public origin, fixed at build time (see vite.config.ts). */
  readonly PUBLIC_URL?: string;
}
