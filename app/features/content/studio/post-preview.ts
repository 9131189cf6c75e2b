import { mediaIdsIn as mediaIdsOfBody, renderPostMarkdown } from "../posts/post-markdown.ts";

// The editor's preview (issue 24): a post's markdown as its public page will show it, by the public
// page's own renderer (posts/post-markdown.ts), in the browser as the person types and on the
// server for the preview button without JavaScript. Images from the media library are written
// `![alt](media:123)` and drawn as the public page draws them.

/** What the preview needs of a library image (the media API's answer has it). */
export type PreviewImage = {
  id: number;
  url: string;
  width: number;
  height: number;
  alt: string;
  variants: readonly { format: string; width: number; height: number; url: string }[];
};

/** The HTML the public page would show for `markdown`. Raw HTML in it is shown as text, never run. */
export function renderPostPreview(markdown: string, images: ReadonlyMap<number, PreviewImage>): string {
  return renderPostMarkdown(markdown, images);
}

/** A body's preview as the server rendered it (off the event loop), for the page's first paint. */
export type BodyPreview = { body: string; html: string; problem: string | null };

/** Without JavaScript, a text the server has not rendered yet (a save that was refused). */
export const PREVIEW_PENDING = "Press Preview to see this text as readers will.";

export const PREVIEW_PROBLEM =
  "The preview cannot lay out this text: it is nested too deeply or too complex. Readers would see it as plain paragraphs. Remove the long runs of >, *, _, ! or [ to fix it.";

/**
 * The preview as the person types. The one the server rendered for this very text is used as it is;
 * any other text is rendered here only once the page runs in the browser (`hydrated`): the server
 * never renders a body on its event loop. A body marked cannot lay out (it overflows the stack)
 * says so instead of taking the editor down.
 */
export function browserPreview(
  markdown: string,
  images: ReadonlyMap<number, PreviewImage>,
  fromServer: BodyPreview | undefined,
  hydrated: boolean,
): { html: string; problem: string | null } {
  if (fromServer && fromServer.body === markdown) return fromServer;
  if (!hydrated) return { html: "", problem: PREVIEW_PENDING };
  try {
    return { html: renderPostPreview(markdown, images), problem: null };
  } catch {
    return { html: "", problem: PREVIEW_PROBLEM };
  }
}

/** The library images a body names (`media:<id>`), each once, in order. */
export const mediaIdsIn = mediaIdsOfBody;

/** The markdown that shows a library image: alt text kept to one line, brackets that would end it taken out. */
export function imageMarkdown(id: number, alt: string): string {
  const text = alt.replace(/\s+/g, " ").replace(/[[\]]/g, "").trim();
  return `![${text}](media:${id})`;
}
