import { Marked, type Tokens } from "marked";
import type { ResponsiveImageSource } from "#app/components/site/responsive-image.tsx";

// The body of a studio post, markdown to HTML (issue 24): one renderer for the public page, the
// preview link and the editor's live preview, so what the author sees is what readers get. It runs
// in the browser too (no server imports).
//
// Author input is data, not code: raw HTML (a <script>, an <iframe>, an event attribute) is shown
// as text, never passed through; links keep only relative, http(s) and mailto targets (no
// `javascript:`, `data:` or `vbscript:`), and a link that leaves the site gets rel="noopener"; images
// come only from the media library (`![alt](media:12)`), drawn as a responsive <picture> with their
// width and height so the page does not shift; alone in its paragraph with a title, it is a <figure>
// with the title as its <figcaption>. Any other image source (another site, a data: URL)
// is dropped with its alt text kept: the page's CSP would block it anyway, and it would let an
// author track readers.

/** An image of the media library as the renderer needs it (the API's answer fits). */
export type PostImage = ResponsiveImageSource;

/**
 * The renderer and its helpers, with no reference outside this function but the Marked class it is
 * given: the server runs the very same code in a worker thread (post-markdown-worker.server.ts gets
 * it as text), because marked takes seconds on some hostile bodies (`_a` repeated 50,000 times) and
 * overflows the stack on others (100,000 `>`), and neither may happen on the event loop.
 */
export function postMarkdownKit(MarkedClass: typeof Marked) {
  const MEDIA_REFERENCE = /^media:([1-9]\d{0,14})$/;
  /** How wide a body image is shown: the article column (max-w-3xl) or the screen. */
  const BODY_SIZES = "(min-width: 768px) 720px, 100vw";
  const htmlEscapes: Record<string, string> = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
  };

  function escapeHtml(text: string): string {
    return text.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
  }

  /** Relative links, fragments, http(s) and mailto only. */
  function isSafeLinkTarget(href: string): boolean {
    const value = href.trim();
    if (/^(?:\/(?!\/)|#|\.{1,2}\/|\?)/.test(value)) return true;
    // A relative path without a scheme ("pricing", "docs/x"): no colon before the first slash.
    if (/^[^:/?#]+(?:[/?#]|$)/.test(value) && !value.includes(":")) return true;
    return /^(?:https?:\/\/|mailto:)/i.test(value);
  }

  const isExternal = (href: string) => /^(?:https?:)?\/\//i.test(href.trim());

  const srcSet = (variants: PostImage["variants"]) =>
    [...variants]
      .sort((a, b) => a.width - b.width)
      .map((variant) => `${escapeHtml(variant.url)} ${variant.width}w`)
      .join(", ");

  /** The same markup as <ResponsiveImage> (app/components/site/responsive-image.tsx), as a string. */
  function pictureHtml(image: PostImage, alt: string, sizes = BODY_SIZES): string {
    const of = (...formats: string[]) => image.variants.filter((variant) => formats.includes(variant.format));
    const fallback = of("jpeg", "png");
    const largest = [...fallback].sort((a, b) => b.width - a.width)[0];
    const source = (type: string, variants: PostImage["variants"]) =>
      variants.length > 0
        ? `<source type="${type}" srcset="${srcSet(variants)}" sizes="${escapeHtml(sizes)}">`
        : "";
    return (
      `<picture>${source("image/avif", of("avif"))}${source("image/webp", of("webp"))}` +
      `<img src="${escapeHtml(largest?.url ?? "")}"${fallback.length > 0 ? ` srcset="${srcSet(fallback)}"` : ""}` +
      ` sizes="${escapeHtml(sizes)}" width="${image.width}" height="${image.height}" alt="${escapeHtml(alt)}"` +
      ` loading="lazy" decoding="async" class="h-auto max-w-full"></picture>`
    );
  }

  function createRenderer(images: ReadonlyMap<number, PostImage>) {
    /** The media library image an image token refers to (`media:12`), if it was given. */
    const libraryImage = (token: Tokens.Image): PostImage | undefined => {
      const reference = MEDIA_REFERENCE.exec(token.href.trim());
      return reference ? images.get(Number(reference[1])) : undefined;
    };
    return new MarkedClass({
      gfm: true,
      renderer: {
        html({ text, block }: Tokens.HTML | Tokens.Tag) {
          return block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text);
        },
        link(token) {
          const inner = this.parser.parseInline(token.tokens);
          if (!isSafeLinkTarget(token.href)) return inner;
          const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
          const rel = isExternal(token.href) ? ' rel="noopener"' : "";
          return `<a href="${escapeHtml(token.href.trim())}"${title}${rel}>${inner}</a>`;
        },
        image(token) {
          const image = libraryImage(token);
          if (!image) return token.text ? `<span>${escapeHtml(token.text)}</span>` : "";
          // The alt text written in the body wins; an empty one falls back to the library's.
          return pictureHtml(image, token.text || image.alt);
        },
        // marked's own table, in a box that scrolls sideways when the table is wider than the column
        // (a phone): its words stay whole and the page never widens. Focusable, so a keyboard can
        // scroll it, and named by its header row.
        table(token) {
          const row = (cells: Tokens.TableCell[]) =>
            this.tablerow({ text: cells.map((cell) => this.tablecell(cell)).join("") });
          const rows = token.rows.map(row).join("");
          const label = token.header
            .map((cell) => cell.text.trim())
            .filter(Boolean)
            .join(", ");
          return (
            `<div class="table-scroll" role="region" tabindex="0" aria-label="${escapeHtml(label ? `Table: ${label}` : "Table")}">` +
            `<table>\n<thead>\n${row(token.header)}</thead>\n${rows ? `<tbody>${rows}</tbody>` : ""}</table>\n</div>\n`
          );
        },
        // An image alone in its paragraph with a title (`![alt](media:12 "Caption")`) is a figure,
        // its title the caption under it; anything else is an ordinary paragraph.
        paragraph(token) {
          const parts = token.tokens.filter((part) => !(part.type === "text" && !part.raw.trim()));
          const only = parts.length === 1 ? parts[0] : undefined;
          if (only?.type !== "image" || !only.title?.trim()) return false;
          const image = libraryImage(only as Tokens.Image);
          if (!image) return false;
          return (
            `<figure>${pictureHtml(image, only.text || image.alt)}` +
            `<figcaption>${escapeHtml(only.title.trim())}</figcaption></figure>\n`
          );
        },
      },
    });
  }

  /** Markdown to HTML for a post's body; `images` are the media library's images it refers to. */
  function render(markdown: string, images: ReadonlyMap<number, PostImage> = new Map()): string {
    return createRenderer(images).parse(markdown, { async: false });
  }

  return { escapeHtml, isSafeLinkTarget, pictureHtml, render, bodyImageSizes: BODY_SIZES };
}

const kit = postMarkdownKit(Marked);

/** How wide a body image is shown: the article column (max-w-3xl) or the screen. */
export const BODY_IMAGE_SIZES = kit.bodyImageSizes;
export const escapeHtml = kit.escapeHtml;
export const isSafeLinkTarget = kit.isSafeLinkTarget;
/** The same markup as <ResponsiveImage> (app/components/site/responsive-image.tsx), as a string. */
export const pictureHtml = kit.pictureHtml;

/**
 * The media ids a body refers to, in order, each once: what a page must load to draw it. The alt
 * text stops at any bracket: with `[^\]]*` each unclosed `![` scanned to the end of the text, and
 * 50,000 of them took 10 s of the event loop (the alt text of an image that draws has no bare
 * brackets either).
 */
export function mediaIdsIn(markdown: string): number[] {
  const ids = new Set<number>();
  for (const match of markdown.matchAll(/!\[[^[\]]*\]\(\s*<?media:([1-9]\d{0,14})>?/g)) {
    const id = Number(match[1]);
    if (Number.isSafeInteger(id)) ids.add(id);
  }
  return [...ids];
}

/** Markdown to HTML for a post's body; `images` are the media library's images it refers to. */
export function renderPostMarkdown(
  markdown: string,
  images: ReadonlyMap<number, PostImage> = new Map(),
): string {
  return kit.render(markdown, images);
}
