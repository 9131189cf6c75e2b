import { createContext, useContext } from "react";
import type { IslandName, PageScriptAssets } from "./page-scripts.ts";

// What the document of a public page needs from the build and React Router does not provide, since
// it does not hydrate these pages (ADR 013): the stylesheet's text, inlined so that nothing blocks the
// first paint, and the page scripts' built URLs. entry.server.tsx provides both; in the browser the
// context is empty, which only the hydrated back office ever renders.

export type PublicDocumentAssets = { stylesheet: string; scripts: PageScriptAssets };

export const PublicDocumentContext = createContext<PublicDocumentAssets | null>(null);

export function usePublicDocumentAssets(): PublicDocumentAssets | null {
  return useContext(PublicDocumentContext);
}

/** The whole stylesheet in the page (about 7 KB with brotli): no request before the first paint. */
export function InlineStylesheet({ css }: { css: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the stylesheet our build compiled, not input.
  return <style dangerouslySetInnerHTML={{ __html: css }} />;
}

/**
 * The enhancement script every public page runs, then the page's islands. Module scripts: deferred,
 * run in order after parsing, and allowed by the CSP's 'self' without a hash or nonce.
 */
export function PageScripts({ scripts, islands }: { scripts: PageScriptAssets; islands: IslandName[] }) {
  return (
    <>
      {(["enhance", ...islands] as const).map((name) => (
        <script key={name} type="module" src={scripts[name].src} />
      ))}
    </>
  );
}
