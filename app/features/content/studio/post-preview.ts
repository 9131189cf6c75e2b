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

/** The library images a body names (`media:<id>`), each once, in order. */
export const mediaIdsIn = mediaIdsOfBody;

/** The markdown that shows a library image: alt text kept to one line, brackets that would end it taken out. */
export function imageMarkdown(id: number, alt: string): string {
  const text = alt.replace(/\s+/g, " ").replace(/[[\]]/g, "").trim();
  return `![${text}](media:${id})`;
}
