// The browser scripts of the public pages, which React Router does not hydrate (ADR 013): one
// enhancement script for every public page, and one island per form. vite.config.ts builds each as
// its own entry; app/root.tsx puts the ones a page needs into its HTML.

/** Entry name → source file, relative to the project root. */
export const PAGE_SCRIPT_ENTRIES = {
  enhance: "app/entry.enhance.ts",
  "demo-request-form": "app/islands/demo-request-form.tsx",
  "investor-interest-form": "app/islands/investor-interest-form.tsx",
} as const;

export type PageScriptName = keyof typeof PAGE_SCRIPT_ENTRIES;

/** A React component hydrated on its own, inside a page that is otherwise static HTML. */
export type IslandName = Exclude<PageScriptName, "enhance">;

/**
 * Where the built entry is. NOTE: no modulepreload of its imports: a preload in the <head> is fetched
 * at high priority while the page renders, and the entry's own imports follow a few milliseconds
 * later anyway.
 */
export type PageScriptAsset = { src: string };

export type PageScriptAssets = Record<PageScriptName, PageScriptAsset>;

/**
 * The inline module script that loads a public page's scripts (the enhancement script and the page's
 * islands, each on its own) once the page has had its first contentful paint: the Paint Timing
 * entry, which a buffered observer sees even when the paint came before the script ran. A frame
 * callback is not enough: the paint is presented after the frame's tasks. Where the browser reports
 * no paint, they load after the next frame, and after 3 s in any case, so a missed entry cannot leave
 * a page without its behaviours. The URLs are our own built asset paths, quoted by JSON.stringify;
 * none can hold `<`.
 */
export function pageScriptsLoader(sources: readonly string[]): string {
  const imports = sources.map((src) => `import(${JSON.stringify(src)});`).join("");
  // Plain ES2017 in a try: a module browser without Paint Timing (PerformanceObserver or its
  // supportedEntryTypes missing, Safari before 13.1) takes the frame fallback instead of throwing
  // before the 3 s timer is set.
  return [
    `let started=false;const start=()=>{if(started)return;started=true;${imports}};`,
    `setTimeout(start,3000);`,
    `try{if(!PerformanceObserver.supportedEntryTypes.includes("paint"))throw 0;`,
    `new PerformanceObserver((list)=>{if(list.getEntriesByName("first-contentful-paint").length)start()})`,
    `.observe({type:"paint",buffered:true})}`,
    `catch(e){requestAnimationFrame(()=>setTimeout(start))}`,
  ].join("");
}

/**
 * What a route's `handle` says about its document. `hydrate`: React Router hydrates the whole page
 * (the back office). `islands`: the page is static HTML apart from these components.
 */
export type DocumentHandle = { hydrate?: boolean; islands?: readonly IslandName[] };

function isDocumentHandle(handle: unknown): handle is DocumentHandle {
  return typeof handle === "object" && handle !== null;
}

/** True when any matched route asks React Router to hydrate the page. */
export function wantsHydration(handles: readonly unknown[]): boolean {
  return handles.some((handle) => isDocumentHandle(handle) && handle.hydrate === true);
}

/** The islands the matched routes declare, each once, in route order. */
export function islandsOf(handles: readonly unknown[]): IslandName[] {
  const names = handles.flatMap((handle) => (isDocumentHandle(handle) ? (handle.islands ?? []) : []));
  return [...new Set(names)];
}
