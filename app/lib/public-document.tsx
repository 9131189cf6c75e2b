import { createContext, useContext } from "react";
import { type IslandName, type PageScriptAssets, pageScriptsLoader } from "./page-scripts.ts";

// What the document of a public page needs from the build and React Router does not provide, since
// it does not hydrate these pages (ADR 013): the stylesheet's text, inlined so that nothing blocks the
// first paint, and the page scripts' built URLs. entry.server.tsx provides both; in the browser the
// context is empty, which only the hydrated back office ever renders.

export type PublicDocumentAssets = {
  stylesheet: string;
  scripts: PageScriptAssets;
  /** The CSP nonce of a document rendered per request; prerendered pages name their scripts by hash. */
  nonce?: string;
};

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
 * The enhancement script every public page runs, then the page's islands, all started by one small
 * inline module script once the page has had its first contentful paint (ADR 013, addendum). On a
 * slow connection nothing but the document comes before the first paint: the behaviours of the
 * enhancement script and the forms' React enhance a page that already works without them. The
 * inline script carries the request's nonce, or is named by its hash in a prerendered page's CSP
 * (scripts/postbuild.ts).
 */
export function PageScripts({
  scripts,
  islands,
  nonce,
}: {
  scripts: PageScriptAssets;
  islands: IslandName[];
  nonce?: string;
}) {
  const sources = (["enhance", ...islands] as const).map((name) => scripts[name].src);
  return (
    <script
      type="module"
      nonce={nonce}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: built from our own asset URLs only.
      dangerouslySetInnerHTML={{ __html: pageScriptsLoader(sources) }}
    />
  );
}
