import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ResponsiveImage, type ResponsiveImageSource } from "./responsive-image.tsx";

// Issue 24: a library image on a public page, in plain markup: the browser chooses the format and
// width; width and height reserve its box so nothing shifts when it arrives.

const variant = (format: string, width: number, ext: string) => ({
  format,
  width,
  height: (width * 2) / 3,
  url: `/media/7/${width}-0123456789abcdef.${ext}`,
});

const photo: ResponsiveImageSource = {
  width: 2400,
  height: 1600,
  alt: "Engineers reviewing a contract on site",
  // As the API lists them; the order of the widths must not matter.
  variants: [
    variant("avif", 960, "avif"),
    variant("avif", 480, "avif"),
    variant("webp", 480, "webp"),
    variant("webp", 960, "webp"),
    variant("jpeg", 480, "jpg"),
    variant("jpeg", 960, "jpg"),
  ],
};

describe("ResponsiveImage", () => {
  it("offers AVIF, then WebP, then a JPEG with every width, its size and its alt text", () => {
    const html = renderToStaticMarkup(
      <ResponsiveImage image={photo} sizes="(min-width: 768px) 720px, 100vw" />,
    );
    expect(html).toBe(
      "<picture>" +
        '<source type="image/avif" srcSet="/media/7/480-0123456789abcdef.avif 480w, /media/7/960-0123456789abcdef.avif 960w" sizes="(min-width: 768px) 720px, 100vw"/>' +
        '<source type="image/webp" srcSet="/media/7/480-0123456789abcdef.webp 480w, /media/7/960-0123456789abcdef.webp 960w" sizes="(min-width: 768px) 720px, 100vw"/>' +
        '<img src="/media/7/960-0123456789abcdef.jpg" srcSet="/media/7/480-0123456789abcdef.jpg 480w, /media/7/960-0123456789abcdef.jpg 960w" sizes="(min-width: 768px) 720px, 100vw" width="2400" height="1600" alt="Engineers reviewing a contract on site" loading="lazy" decoding="async" class="h-auto max-w-full"/>' +
        "</picture>",
    );
  });

  it("loads a cover image at once and first, with its own alt text, or none for a decorative one", () => {
    const cover = renderToStaticMarkup(
      <ResponsiveImage
        image={photo}
        sizes="100vw"
        alt=""
        loading="eager"
        fetchPriority="high"
        className="rounded"
      />,
    );
    expect(cover).toContain(
      'alt="" loading="eager" decoding="async" fetchPriority="high" class="h-auto max-w-full rounded"',
    );
  });

  it("falls back to PNG for an image with transparency", () => {
    const logo: ResponsiveImageSource = {
      width: 300,
      height: 200,
      alt: "Partner logo",
      variants: [variant("avif", 300, "avif"), variant("webp", 300, "webp"), variant("png", 300, "png")],
    };
    const html = renderToStaticMarkup(<ResponsiveImage image={logo} sizes="300px" />);
    expect(html).toContain(
      '<img src="/media/7/300-0123456789abcdef.png" srcSet="/media/7/300-0123456789abcdef.png 300w"',
    );
  });
});
