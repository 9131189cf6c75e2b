import { renderMarkdown } from "../blog-parser.ts";

// The editor's preview (issue 24): a post's markdown as its public page will show it, by the public
// page's own renderer, in the browser as the person types and on the server for the preview button
// without JavaScript. Images from the media library are written `![alt](media:123)`.
// NOTE: the one place the studio names the renderer. Until the posts' own renderer
// (posts/post-markdown.ts, renderPostMarkdown) is on main, the blog's is used, with each library
// image pointed at its largest fallback file; the switch is this function's body.

/** What the preview needs of a library image (the media API's answer has it). */
export type PreviewImage = {
  id: number;
  url: string;
  width: number;
  height: number;
  alt: string;
  variants: readonly { format: string; width: number; height: number; url: string }[];
};

const MEDIA_IMAGE = /(!\[[^\]\n]*\]\()media:(\d{1,15})(\s+"[^"\n]*")?\)/g;

/** The HTML the public page would show for `markdown`. Raw HTML in it is shown as text, never run. */
export function renderPostPreview(markdown: string, images: ReadonlyMap<number, PreviewImage>): string {
  return renderMarkdown(
    markdown.replace(MEDIA_IMAGE, (whole, start: string, id: string, title = "") => {
      const image = images.get(Number(id));
      return image ? `${start}${image.url}${title})` : whole;
    }),
  );
}

/** The library images a body names (`media:<id>`), each once, in order. */
export function mediaIdsIn(markdown: string): number[] {
  const ids = new Set<number>();
  for (const match of markdown.matchAll(MEDIA_IMAGE)) ids.add(Number(match[2]));
  return [...ids];
}

/** The markdown that shows a library image: alt text kept to one line, brackets that would end it taken out. */
export function imageMarkdown(id: number, alt: string): string {
  const text = alt.replace(/\s+/g, " ").replace(/[[\]]/g, "").trim();
  return `![${text}](media:${id})`;
}
